import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import type { Container } from 'inversify';
import { EMAIL_KIND, SHIPPED_ALERT_RULES, TOKENS, AccountHealthFlow, AccountsService, type AppConfig, type HeardMail } from '@subshare/core';
import { createApp } from '@subshare/http';
import { startWorker, type WorkerHandle } from '@subshare/worker';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { ALERT_MAILS, alertMail } from '../support/alert-mails.js';
import { containerWith } from '../support/containers.js';
import { harness } from '../support/harness.js';
import { subscribe } from '../support/mailboxes.js';
import { createAccount, createPlatform, platformJobsSettled, refreshCatalog, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/** A verified mail as the watcher hands it over once DKIM/DMARC passed (issue 33, items 1 and 3). */
type VerifiedMail = HeardMail & { authentication: 'verified' };

/**
 * No single voice empties the shelf (issue 33, items 3 and 4), through the real HTTP API and the
 * account-health flow: buyers' "it doesn't work" reports (attention; two different buyers, or
 * staff, break the account and move its buyers; once per subscription per hour, also under a
 * burst), and the platform's circuit breaker (the third account breaking within an hour is held,
 * one staff alert, its buyers stay), decided under a lock when two processes hear two mails at once.
 */
describe('buyer problem reports and the platform circuit breaker', function () {
  this.timeout(90_000);
  let container: Container;
  let app: Express;
  let worker: WorkerHandle;
  let moderator: TestUser;
  const staffAlert = `ops-${randomUUID().slice(0, 8)}@example.test`;
  const knex = () => harness().knex;
  const flow = (from = container) => from.get(AccountHealthFlow);

  before(async () => {
    const { config } = harness();
    const withAlerts: AppConfig = { ...config, mailbox: { ...config.mailbox, staffAlertEmails: [staffAlert] } };
    expect(withAlerts.accountHealth).to.deep.equal({ breaksPerHour: 2, reportsToBreak: 2 });
    container = containerWith({ config: withAlerts });
    app = createApp(container, { accessLog: false });
    worker = await startWorker(harness().boss, container);
    moderator = await loginAs('moderator', { app });
  });

  after(async () => {
    await worker?.stop();
  });

  interface Held {
    accountId: number;
    email: string;
    mailboxId: number;
    buyers: Array<{ user: TestUser; subscriptionId: number }>;
  }

  /**
   * A video platform with Netflix's shipped rules and `accounts` accounts (each with its mailbox)
   * full of `perAccount` buyers each, then a spare account with room for everyone.
   */
  async function shelf(accounts: number, perAccount = 2): Promise<{ platform: TestPlatform; held: Held[]; spareId: number }> {
    const platform = await createPlatform({ category: 0, slotsCount: perAccount });
    await knex()('platforms')
      .where({ id: platform.id })
      .update({ alert_rules: JSON.stringify(SHIPPED_ALERT_RULES.netflix) });
    refreshCatalog();
    const service = container.get(AccountsService);
    const held: Held[] = [];
    for (let n = 0; n < accounts; n += 1) {
      const mailbox = await service.createMailbox({ label: 'test' }, { platformId: platform.id });
      const account = await service.createAccount(
        { label: 'test' },
        { platformId: platform.id, email: mailbox.email, password: `pw-${randomUUID().slice(0, 8)}`, slotsCount: perAccount, femail: `fw-${n}@example.test` },
      );
      await platformJobsSettled(platform.id);
      const buyers: Held['buyers'] = [];
      // The earlier accounts are full: these buyers land on this one.
      for (let b = 0; b < perAccount; b += 1) {
        const user = await loginAs('user', { app });
        buyers.push({ user, subscriptionId: await subscribe(container, user, platform) });
      }
      held.push({ accountId: account.id, email: mailbox.email, mailboxId: mailbox.id, buyers });
    }
    for (const { accountId, buyers } of held) {
      const on = await knex()('subscriptions')
        .whereIn(
          'id',
          buyers.map((buyer) => buyer.subscriptionId),
        )
        .pluck('platform_account_id');
      expect(on.map(Number)).to.deep.equal(buyers.map(() => accountId));
    }
    const spare = await createAccount(platform.id, accounts * perAccount);
    await platformJobsSettled(platform.id);
    return { platform, held, spareId: spare.id };
  }

  const healthOf = async (accountId: number) => (await knex()('platform_accounts').where({ id: accountId }).first('health')).health as string;
  const statusOf = async (subscriptionId: number) => (await knex()('subscriptions').where({ id: subscriptionId }).first('status')).status as string;
  const report = (buyer: { user: TestUser; subscriptionId: number }, kind = 'cantLogIn', note?: string) =>
    api(app).post('/api/subscribe/reportproblem').set(buyer.user.auth).send({ subscriptionId: buyer.subscriptionId, kind, note });
  const movedOff = (subscriptionId: number) =>
    waitFor(async () => knex()('subscriptions').where({ replaced_from_id: subscriptionId }).first(), { what: `subscription ${subscriptionId} moved` });
  const incidentMails = async (platformId: number) =>
    knex()('email_outbox')
      .where({ kind: EMAIL_KIND.platformIncident, to_address: staffAlert })
      .where('idempotency_key', 'like', `platform:${platformId}:incident:%`)
      .select('subject', 'idempotency_key');

  /** The platform's "password changed" mail, verified, as the watcher hands it to the flow. */
  function passwordChanged(to: string): VerifiedMail {
    const mail = alertMail('netflix', 'passwordChanged', to);
    return {
      uid: Math.floor(Math.random() * 1e9),
      uidValidity: '1',
      messageId: `<${randomUUID()}@account.netflix.com>`,
      from: /<([^>]+)>/.exec(ALERT_MAILS.netflix.from)![1],
      subject: mail.subject,
      receivedAt: new Date(),
      recipients: [to],
      text: mail.text ?? '',
      readForBuyers: false,
      authentication: 'verified',
    };
  }

  it('a report marks attention and answers self-help at once; the buyer stays; audited', async () => {
    const { held } = await shelf(1);
    const [account] = held;
    const res = await report(account.buyers[0], 'wrongPassword', '  It says the password is wrong  ').expect(200);
    expect(res.body).to.include({ subscriptionId: account.buyers[0].subscriptionId, kind: 'wrongPassword', help: 'householdLink', checking: true });
    expect(res.body.credentials).to.deep.equal({ loginEmail: account.email, mayNotWork: false });
    expect(await healthOf(account.accountId)).to.equal('attention');
    expect(await statusOf(account.buyers[0].subscriptionId)).to.equal('active');
    const stored = await knex()('account_problem_reports').where({ id: res.body.reportId }).first();
    expect(stored).to.include({ kind: 'wrongPassword', note: 'It says the password is wrong' });
    const [audit] = await knex()('audit_log')
      .where({ action: 'account.problem.report', target_id: String(account.buyers[0].subscriptionId) })
      .select('actor_user_id', 'details');
    expect(audit.actor_user_id).to.equal(account.buyers[0].user.id);
    expect(audit.details).to.deep.include({ reportId: res.body.reportId, kind: 'wrongPassword', withNote: true });
    expect(JSON.stringify(audit.details)).not.to.include('password is wrong');

    const listed = await api(app)
      .get('/api/subscribe/accounthealth')
      .query({ platformId: (await knex()('platform_accounts').where({ id: account.accountId }).first('platform_id')).platform_id })
      .set(moderator.auth)
      .expect(200);
    const entry = listed.body.find((item: { accountId: number }) => item.accountId === account.accountId);
    expect(entry).to.deep.include({ state: 'attention', incident: null });
    expect(entry.cause).to.include({ kind: 'buyerReports' });
    expect(entry.reports).to.have.length(1);
    expect(entry.reports[0]).to.include({ reportId: res.body.reportId, kind: 'wrongPassword', note: 'It says the password is wrong', confirmedAt: null });
  });

  it('one buyer reporting again and again never breaks the account: once per subscription per hour, even in a parallel burst', async () => {
    const { held } = await shelf(1);
    const [account] = held;
    const burst = await Promise.all(Array.from({ length: 8 }, () => report(account.buyers[0])));
    expect(burst.map((res) => res.status).sort()).to.deep.equal([200, 409, 409, 409, 409, 409, 409, 409]);
    const refused = burst.find((res) => res.status === 409)!;
    expect(refused.body.code).to.equal('problem_already_reported');
    expect(refused.body.message).to.match(/less than an hour ago/);
    expect(await knex()('account_problem_reports').where({ subscription_id: account.buyers[0].subscriptionId }).count('* as n').first()).to.deep.equal({
      n: 1,
    });
    // An hour later the same buyer may report again: still one voice, still attention.
    await knex()('account_problem_reports')
      .where({ subscription_id: account.buyers[0].subscriptionId })
      .update({ created_at: knex().raw("created_at - interval '61 minutes'") });
    await report(account.buyers[0], 'other').expect(200);
    expect(await healthOf(account.accountId)).to.equal('attention');
    expect(await statusOf(account.buyers[0].subscriptionId)).to.equal('active');
  });

  it('reports of two different buyers within an hour break the account and move its buyers as a mail would', async () => {
    const { held, spareId } = await shelf(1);
    const [account] = held;
    await report(account.buyers[0], 'profileTaken').expect(200);
    expect(await healthOf(account.accountId)).to.equal('attention');
    const second = await report(account.buyers[1], 'tooManyScreens').expect(200);
    expect(await healthOf(account.accountId)).to.equal('broken');
    expect(second.body.credentials.mayNotWork).to.equal(true);
    for (const buyer of account.buyers) {
      const moved = await movedOff(buyer.subscriptionId);
      expect(moved.platform_account_id).to.equal(spareId);
      expect(await statusOf(buyer.subscriptionId)).to.equal('replaced');
    }
    const [change] = await knex()('audit_log')
      .where({ action: 'account.health', target_id: String(account.accountId) })
      .orderBy('id', 'desc')
      .select('details', 'actor_label');
    expect(change.actor_label).to.equal('buyer reports');
    expect(change.details).to.deep.include({ from: 'attention', to: 'broken' });
    expect(change.details.reports).to.include({ kind: 'buyerReports', reports: 2 });
  });

  it('staff confirm one buyer’s report: broken, buyers moved, audited', async () => {
    const { held, spareId, platform } = await shelf(1);
    const [account] = held;
    const reported = await report(account.buyers[0], 'cantLogIn').expect(200);
    const buyer = await loginAs('user', { app });
    await api(app).post('/api/subscribe/confirmreport').set(buyer.auth).send({ reportId: reported.body.reportId }).expect(403);
    const missing = await api(app).post('/api/subscribe/confirmreport').set(moderator.auth).send({ reportId: 2_000_000_000 }).expect(404);
    expect(missing.body.code).to.equal('report_not_found');
    const confirmed = await api(app).post('/api/subscribe/confirmreport').set(moderator.auth).send({ reportId: reported.body.reportId }).expect(200);
    expect(confirmed.body).to.deep.equal({ reportId: reported.body.reportId, accountId: account.accountId, state: 'broken' });
    expect(await healthOf(account.accountId)).to.equal('broken');
    for (const { subscriptionId } of account.buyers) expect((await movedOff(subscriptionId)).platform_account_id).to.equal(spareId);
    const [audit] = await knex()('audit_log')
      .where({ action: 'account.problem.confirm', target_id: String(account.accountId) })
      .select('actor_user_id', 'details');
    expect(audit.actor_user_id).to.equal(moderator.id);
    expect(audit.details).to.deep.include({ reportId: reported.body.reportId, from: 'attention', to: 'broken' });
    const listed = await api(app).get('/api/subscribe/accounthealth').query({ platformId: platform.id }).set(moderator.auth).expect(200);
    const entry = listed.body.find((item: { accountId: number }) => item.accountId === account.accountId);
    expect(entry.reports[0].confirmedAt).to.be.a('string');
  });

  it('only the holder of an active subscription reports; input is strictly validated', async () => {
    const { held } = await shelf(1);
    const [account] = held;
    const stranger = await loginAs('user', { app });
    const other = await api(app)
      .post('/api/subscribe/reportproblem')
      .set(stranger.auth)
      .send({ subscriptionId: account.buyers[0].subscriptionId, kind: 'other' })
      .expect(404);
    expect(other.body.code).to.equal('subscription_not_found');
    expect(JSON.stringify(other.body)).not.to.include(account.email);
    await api(app).post('/api/subscribe/reportproblem').set(stranger.auth).send({ subscriptionId: 2_000_000_000, kind: 'other' }).expect(404);
    await api(app).post('/api/subscribe/reportproblem').send({ subscriptionId: account.buyers[0].subscriptionId, kind: 'other' }).expect(401);
    const bad = await api(app)
      .post('/api/subscribe/reportproblem')
      .set(account.buyers[0].user.auth)
      .send({ subscriptionId: 'one', kind: 'itIsBroken', note: 'x'.repeat(501) })
      .expect(400);
    expect(bad.body.errors).to.have.keys('subscriptionId', 'kind', 'note');
    const typed = await api(app)
      .post('/api/subscribe/reportproblem')
      .set(account.buyers[0].user.auth)
      .send({ subscriptionId: account.buyers[0].subscriptionId, kind: ['cantLogIn'], note: { text: 'x' } })
      .expect(400);
    expect(typed.body.errors).to.have.keys('kind', 'note');
    const proto = await api(app)
      .post('/api/subscribe/reportproblem')
      .set(account.buyers[0].user.auth)
      .set('Content-Type', 'application/json')
      .send(`{"subscriptionId":${account.buyers[0].subscriptionId},"kind":"other","__proto__":{"isAdmin":true}}`)
      .expect(400);
    expect(proto.body.code).to.equal('forbidden_key');
    await knex()('subscriptions').where({ id: account.buyers[1].subscriptionId }).update({ status: 'ended', ended_at: new Date() });
    const ended = await report(account.buyers[1]).expect(409);
    expect(ended.body.code).to.equal('subscription_not_active');
    expect(await knex()('account_problem_reports').where({ platform_account_id: account.accountId }).count('* as n').first()).to.deep.equal({ n: 0 });
    expect(await healthOf(account.accountId)).to.equal('ok');
  });

  it('circuit breaker, by mail: two processes hear two mails at once; the third account breaking within an hour is held, one staff alert, its buyers stay', async () => {
    const { platform, held, spareId } = await shelf(4, 1);
    const [first, second, third, fourth] = held;
    await flow().heard(first.mailboxId, [passwordChanged(first.email)]);
    expect(await healthOf(first.accountId)).to.equal('broken');
    // Two processes (two containers, their own connections) hear the second and third mails at once.
    const other = containerWith({ config: container.get<AppConfig>(TOKENS.Config) });
    await Promise.all([flow().heard(second.mailboxId, [passwordChanged(second.email)]), flow(other).heard(third.mailboxId, [passwordChanged(third.email)])]);
    const states = [await healthOf(second.accountId), await healthOf(third.accountId)].sort();
    expect(states).to.deep.equal(['attention', 'broken']);
    const heldOne = (await healthOf(second.accountId)) === 'attention' ? second : third;
    await flow().heard(fourth.mailboxId, [passwordChanged(fourth.email)]);
    expect(await healthOf(fourth.accountId)).to.equal('attention');

    // The held mails are recorded `held`; the held accounts' buyers were not moved.
    for (const account of [heldOne, fourth]) {
      const [mail] = await knex()('account_alert_mail').where({ platform_account_id: account.accountId }).select('action', 'kind');
      expect(mail).to.deep.equal({ action: 'held', kind: 'passwordChanged' });
    }
    expect((await movedOff(first.buyers[0].subscriptionId)).platform_account_id).to.equal(spareId);
    expect(await knex()('account_health_moves').whereIn('platform_account_id', [heldOne.accountId, fourth.accountId]).count('* as n').first()).to.deep.equal({
      n: 0,
    });
    expect(await statusOf(heldOne.buyers[0].subscriptionId)).to.equal('active');
    expect(await statusOf(fourth.buyers[0].subscriptionId)).to.equal('active');

    // ONE staff alert for the incident, saying so; the audit names both held breaks.
    const mails = await incidentMails(platform.id);
    expect(mails).to.have.length(1);
    expect(mails[0].subject).to.equal(`Platform-wide incident: ${platform.name}`);
    const delivered = await harness().mailTo(staffAlert, (mail) => mail.subject.includes('Platform-wide incident') && mail.subject.includes(platform.name));
    expect(delivered.text).to.include(heldOne.email);
    const audits = await knex()('audit_log')
      .where({ action: 'account.health.held' })
      .whereIn('target_id', [String(heldOne.accountId), String(fourth.accountId)])
      .select('details');
    expect(audits.map((entry) => entry.details.opened).sort()).to.deep.equal([false, true]);

    // Staff see the incident on the platform's accounts.
    const listed = await api(app).get('/api/subscribe/accounthealth').query({ platformId: platform.id }).set(moderator.auth).expect(200);
    for (const entry of listed.body) {
      expect(entry.incident).to.include({ held: 2, breaksPerHour: 2 });
      expect(entry.incident.heldAccountIds.sort()).to.deep.equal([heldOne.accountId, fourth.accountId].sort());
    }
    // Staff still break a held account by hand: its buyer moves.
    await api(app)
      .post('/api/subscribe/setaccounthealth')
      .set(moderator.auth)
      .send({ accountId: fourth.accountId, state: 'broken', reason: 'checked: taken over' })
      .expect(200);
    expect((await movedOff(fourth.buyers[0].subscriptionId)).platform_account_id).to.equal(spareId);
    expect(await incidentMails(platform.id)).to.have.length(1);
  });

  it('circuit breaker, by reports: the third account that two buyers report within the hour is held', async () => {
    const { platform, held, spareId } = await shelf(3, 2);
    for (const account of held.slice(0, 2)) {
      await report(account.buyers[0]).expect(200);
      await report(account.buyers[1]).expect(200);
      expect(await healthOf(account.accountId)).to.equal('broken');
    }
    const third = held[2];
    await report(third.buyers[0]).expect(200);
    const last = await report(third.buyers[1]).expect(200);
    expect(await healthOf(third.accountId)).to.equal('attention');
    expect(last.body.credentials.mayNotWork).to.equal(false);
    for (const account of held.slice(0, 2))
      for (const { subscriptionId } of account.buyers) expect((await movedOff(subscriptionId)).platform_account_id).to.equal(spareId);
    for (const { subscriptionId } of third.buyers) expect(await statusOf(subscriptionId)).to.equal('active');
    expect(await knex()('account_health_moves').where({ platform_account_id: third.accountId }).count('* as n').first()).to.deep.equal({ n: 0 });
    expect(await incidentMails(platform.id)).to.have.length(1);
    const [audit] = await knex()('audit_log')
      .where({ action: 'account.health.held', target_id: String(third.accountId) })
      .select('details', 'actor_label');
    expect(audit.actor_label).to.equal('buyer reports');
    expect(audit.details.cause).to.include({ kind: 'buyerReports', reports: 2 });
  });
});
