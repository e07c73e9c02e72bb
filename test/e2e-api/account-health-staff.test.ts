import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Container } from 'inversify';
import { AccountHealthFlow, type AppConfig } from '@subshare/core';
import { createApp } from '@subshare/http';
import { startWorker, type WorkerHandle } from '@subshare/worker';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { containerWith } from '../support/containers.js';
import { harness } from '../support/harness.js';
import { subscribe } from '../support/mailboxes.js';
import { createAccount, createPlatform, platformJobsSettled } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

const TOKEN = randomBytes(24).toString('hex');

/**
 * Account health as staff and buyers see it (issue 29), without IMAP (the mail side is
 * account-health.test.ts): no free slot (the panel says "repairing", staff are told, the buyer
 * moves the moment staff add an account), giving lost time back once, the dashboard, the metric,
 * and who may call what.
 */
describe('account health: staff views, waiting buyers and lost time', function () {
  this.timeout(60_000);
  let container: Container;
  let worker: WorkerHandle;
  let admin: TestUser;
  const staffAlert = `ops-${randomUUID().slice(0, 8)}@example.test`;
  const knex = () => harness().knex;
  let app: ReturnType<typeof createApp>;
  const flow = () => container.get(AccountHealthFlow);

  before(async () => {
    const { config } = harness();
    const withAlerts: AppConfig = { ...config, metrics: { token: TOKEN }, mailbox: { ...config.mailbox, staffAlertEmails: [staffAlert] } };
    container = containerWith({ config: withAlerts });
    app = createApp(container, { accessLog: false });
    worker = await startWorker(harness().boss, container);
    admin = await loginAs('admin', { app });
  });

  after(async () => {
    await worker?.stop();
  });

  it('no free slot: the panel says repairing, staff are told; a new account moves the buyer; lost time is given back once', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    const broken = await createAccount(platform.id, 2);
    await platformJobsSettled(platform.id);
    const buyer = await loginAs('user', { app });
    const subscriptionId = await subscribe(container, buyer, platform);
    const before = await knex()('subscriptions').where({ id: subscriptionId }).first();

    const set = await api(app)
      .post('/api/subscribe/setaccounthealth')
      .set(admin.auth)
      .send({ accountId: broken.id, state: 'broken', reason: 'password changed by someone' })
      .expect(200);
    expect(set.body).to.include({ accountId: broken.id, state: 'broken' });

    // The move job finds no healthy account: the buyer waits, sees it, and staff get one e-mail.
    await waitFor(async () => (await knex()('account_health_moves').where({ subscription_id: subscriptionId }).first())?.moved_at === null, {
      what: 'the waiting move',
    });
    const panel = await api(app).get('/api/user/getuserpanel').query({ id: buyer.id }).set(buyer.auth).expect(200);
    expect(panel.body.subscribers.map((item: { health: string }) => item.health)).to.deep.equal(['repairing']);
    const alert = await harness().mailTo(staffAlert, (mail) => mail.subject.includes(broken.email));
    expect(alert.text, alert.text).to.match(/Buyers waiting for a slot\W+1/);
    const listed = await api(app).get('/api/subscribe/accounthealth').query({ platformId: platform.id }).set(admin.auth).expect(200);
    expect(listed.body[0]).to.deep.include({ accountId: broken.id, state: 'broken' });
    expect(listed.body[0].cause).to.include({ kind: 'staff', reason: 'password changed by someone' });
    expect(listed.body[0].buyers[0]).to.include({ subscriptionId, status: 'waiting' });
    // Platform names in English unless staff ask for Korean (issue 35), and only 1 or 2.
    expect(listed.body[0].platformName).to.equal(platform.name);
    const korean = await api(app).get('/api/subscribe/accounthealth').query({ platformId: platform.id, languageId: 2 }).set(admin.auth).expect(200);
    expect(korean.body[0].platformName).to.equal(`${platform.name} (KO)`);
    await api(app).get('/api/subscribe/accounthealth').query({ languageId: 3 }).set(admin.auth).expect(400);

    // The dashboard and the metric count it.
    const dashboard = await api(app).get('/api/admin/dashboard').set(admin.auth).expect(200);
    expect(dashboard.body.accountHealth.broken).to.be.at.least(1);
    const metrics = await api(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(metrics.text).to.match(/subshare_platform_accounts\{state="broken"\} [1-9]/);
    expect(metrics.text).to.match(/subshare_platform_accounts\{state="ok"\} \d/);

    // Staff add an account: the account-created job moves the waiting buyer at once, same slot and end.
    const spare = await createAccount(platform.id, 2);
    const moved = await waitFor(async () => knex()('subscriptions').where({ replaced_from_id: subscriptionId }).first(), {
      what: 'the move to the new account',
    });
    expect(moved).to.include({ platform_account_id: spare.id, slot: before.slot, status: 'active' });
    expect(moved.ends_at.getTime()).to.equal(before.ends_at.getTime());
    const after = await api(app).get('/api/user/getuserpanel').query({ id: buyer.id }).set(buyer.auth).expect(200);
    expect(after.body.subscribers.map((item: { subscribeId: number; health: string }) => [item.subscribeId, item.health])).to.deep.equal([[moved.id, 'moved']]);

    // The time lost, given back once, audited.
    const extended = await api(app).post('/api/subscribe/extendlosttime').set(admin.auth).send({ accountId: broken.id }).expect(200);
    expect(extended.body.extended).to.have.length(1);
    expect(extended.body.extended[0].subscriptionId).to.equal(moved.id);
    const minutes = extended.body.extended[0].minutes as number;
    expect(minutes).to.be.at.least(1);
    const longer = await knex()('subscriptions').where({ id: moved.id }).first();
    expect(longer.ends_at.getTime()).to.equal(before.ends_at.getTime() + minutes * 60_000);
    const again = await api(app).post('/api/subscribe/extendlosttime').set(admin.auth).send({ accountId: broken.id }).expect(409);
    expect(again.body.code).to.equal('nothing_to_extend');
    const [audit] = await knex()('audit_log')
      .where({ action: 'account.health.extend', target_id: String(broken.id) })
      .select('details', 'actor_user_id');
    expect(audit.actor_user_id).to.equal(admin.id);
    expect(audit.details.extended).to.deep.equal([{ subscriptionId: moved.id, ms: minutes * 60_000 }]);
  });

  it('staff only, strictly validated', async () => {
    const buyer = await loginAs('user', { app });
    await api(app).get('/api/subscribe/accounthealth').set(buyer.auth).expect(403);
    await api(app).get('/api/subscribe/accounthealth').expect(401);
    await api(app).post('/api/subscribe/setaccounthealth').set(buyer.auth).send({ accountId: 1, state: 'ok', reason: 'x' }).expect(403);
    const moderator = await loginAs('moderator', { app });
    const bad = await api(app).post('/api/subscribe/setaccounthealth').set(moderator.auth).send({ accountId: 'x', state: 'fine', reason: '' }).expect(400);
    expect(bad.body.errors).to.have.keys('accountId', 'state', 'reason');
    const missing = await api(app)
      .post('/api/subscribe/setaccounthealth')
      .set(moderator.auth)
      .send({ accountId: 2_000_000_000, state: 'ok', reason: 'x' })
      .expect(404);
    expect(missing.body.code).to.equal('account_not_found');
    await api(app).post('/api/subscribe/extendlosttime').set(moderator.auth).send({ accountId: 2_000_000_000 }).expect(404);
    await api(app).get('/api/subscribe/accounthealth').query({ platformId: 'abc' }).set(moderator.auth).expect(400);
  });

  it('a broken account takes no new buyers', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    const account = await createAccount(platform.id, 2);
    // A second account, healthy and full, keeps the platform on sale (every account broken takes it off sale).
    const full = await createAccount(platform.id, 1);
    await platformJobsSettled(platform.id);
    await flow().setHealth({ label: 'test' }, { accountId: account.id, state: 'broken', reason: 'on hold' });
    await subscribe(container, await loginAs('user', { app }), platform);
    const onFull = await knex()('subscriptions').where({ platform_account_id: full.id, status: 'active' }).select('id');
    expect(onFull).to.have.length(1);
    const buyer = await loginAs('user', { app });
    const error = await subscribe(container, buyer, platform).catch((caught: Error) => caught);
    expect(String(error)).to.contain('got no slot');
  });
});
