import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import type { Container } from 'inversify';
import request from 'supertest';
import {
  SHIPPED_ALERT_RULES,
  AccountHealthFlow,
  AccountsService,
  type AppConfig,
  type HeardMail,
  MailboxReaderService,
  type ShippedAlertRuleSet,
} from '@subshare/core';
import { createApp } from '@subshare/http';
import { startWorker, type WorkerHandle } from '@subshare/worker';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { alertMail, googleSecurityAlert, newsletterMail, RECEIPT_RULES, receiptMail, RECEIPTS, unknownPlatformMail } from '../support/alert-mails.js';
import { containerWith } from '../support/containers.js';
import type { MailToDeliver } from '../support/dovecot.js';
import { harness } from '../support/harness.js';
import { openAiMail, subscribe } from '../support/mailboxes.js';
import { createPlatform, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 33, the verdicts on verified platform mail (items 5 and 6): Google's one-subject security
 * alert told apart by its body, receipts and newsletters that change nothing, a mail no rule knows
 * listed for staff as unclassified (never attention), the recent mails staff read per account
 * (verdicts, never a code), and a platform whose every account is broken going off sale by
 * itself and coming back. Mails are handed to the account-health flow as the mailbox watcher hands
 * them, already authenticated (`authentication: 'verified'`): checking the signature is another
 * part of the issue, tested with signed mail on Dovecot.
 */
describe('account health: verdicts on verified platform mail, staff listing and off sale', function () {
  this.timeout(60_000);
  let container: Container;
  let app: Express;
  let worker: WorkerHandle;
  let admin: TestUser;
  const staffAlert = `ops-${randomUUID().slice(0, 8)}@example.test`;
  const knex = () => harness().knex;
  const flow = () => container.get(AccountHealthFlow);
  let uid = 0;

  before(async () => {
    const { config } = harness();
    const withAlerts: AppConfig = { ...config, mailbox: { ...config.mailbox, staffAlertEmails: [staffAlert] } };
    container = containerWith({ config: withAlerts });
    app = createApp(container, { accessLog: false });
    // E-mails (the staff alert) and moves run in a worker on this container.
    worker = await startWorker(harness().boss, container);
    admin = await loginAs('admin', { app });
  });
  after(() => worker?.stop());

  /** A platform with the shipped rules of `set` and an account whose mail lands in a mailbox of the shop. */
  async function accountOn(set: ShippedAlertRuleSet, platform?: TestPlatform) {
    const on = platform ?? (await createPlatform({ slotsCount: 2, category: set === 'chatgpt' ? 8 : 0 }));
    await knex()('platforms')
      .where({ id: on.id })
      .update({ alert_rules: JSON.stringify(SHIPPED_ALERT_RULES[set]) });
    const accounts = container.get(AccountsService);
    const mailbox = await accounts.createMailbox({ label: 'test' }, { platformId: on.id });
    const account = await accounts.createAccount(
      { label: 'test' },
      { platformId: on.id, email: mailbox.email, password: `pw-${randomUUID().slice(0, 8)}`, slotsCount: 2, femail: 'fw@example.test' },
    );
    return { platform: on, account, mailboxId: mailbox.id, address: mailbox.email };
  }

  /** The mail as the watcher hands it over: verified, the visible text in memory only. */
  const heard = (mail: MailToDeliver, to: string, readForBuyers = false): HeardMail => ({
    uid: (uid += 1),
    uidValidity: '1',
    messageId: randomUUID(),
    from: /<([^>]+)>/.exec(mail.from)?.[1] ?? mail.from,
    subject: mail.subject,
    receivedAt: new Date(),
    recipients: [to],
    text: `${mail.text ?? ''}\n${(mail.html ?? '').replace(/<[^>]+>/g, ' ')}`,
    readForBuyers,
    authentication: 'verified',
  });
  const hear = async (target: { mailboxId: number; address: string }, mail: MailToDeliver, readForBuyers = false) =>
    flow().heard(target.mailboxId, [heard(mail, target.address, readForBuyers)]);
  const healthOf = async (accountId: number) => (await knex()('platform_accounts').where({ id: accountId }).first('health')).health as string;
  const recorded = (accountId: number) =>
    knex()('account_alert_mail').where({ platform_account_id: accountId }).orderBy('id').select('kind', 'action', 'subject');

  for (const lang of ['en', 'ko'] as const) {
    it(`Google's "${lang === 'en' ? 'Security alert' : '보안 알림'}": a new sign-in only warns, a changed password breaks`, async () => {
      const target = await accountOn('youtube');
      await hear(target, googleSecurityAlert('newSignIn', target.address, lang));
      expect(await healthOf(target.account.id)).to.equal('attention');
      await hear(target, googleSecurityAlert('passwordChanged', target.address, lang));
      expect(await healthOf(target.account.id)).to.equal('broken');
      expect((await recorded(target.account.id)).map(({ kind, action }) => [kind, action])).to.deep.equal([
        ['newSignIn', 'attention'],
        ['passwordChanged', 'broken'],
      ]);
      const [audit] = await knex()('audit_log')
        .where({ action: 'account.health', target_id: String(target.account.id) })
        .orderBy('id', 'desc')
        .select('details');
      expect(audit.details).to.deep.include({ from: 'attention', to: 'broken' });
    });
  }

  it('receipts from Google Play, Disney+ and OpenAI and the platforms’ newsletters change nothing, in English and Korean', async () => {
    for (const receipt of RECEIPTS) {
      const set = RECEIPT_RULES[receipt];
      const target = await accountOn(set);
      for (const lang of ['en', 'ko'] as const) {
        await hear(target, receiptMail(receipt, target.address, lang));
        await hear(target, newsletterMail(set, target.address, lang));
      }
      expect(await healthOf(target.account.id), receipt).to.equal('ok');
      const rows = await recorded(target.account.id);
      expect(rows, receipt).to.have.length(4);
      expect(
        rows.every((row) => row.kind === 'ignore' && row.action === 'none'),
        receipt,
      ).to.equal(true);
    }
  });

  it('a verified mail no rule knows leaves the account ok and is listed for staff as unclassified; the listing shows verdicts, never a code', async () => {
    const target = await accountOn('chatgpt');
    const code = String(100000 + Math.floor(Math.random() * 800000));
    await hear(target, unknownPlatformMail('chatgpt', target.address));
    await hear(target, { ...openAiMail(target.address, code), text: `Enter this code: ${code}` }, true);
    await hear(target, alertMail('chatgpt', 'newSignIn', target.address));
    expect(await healthOf(target.account.id)).to.equal('attention'); // the new login, not the unknown mail

    const buyer = await loginAs('user', { app });
    await api(app).get('/api/subscribe/accounthealth').query({ platformId: target.platform.id }).set(buyer.auth).expect(403);
    const { body } = await api(app).get('/api/subscribe/accounthealth').query({ platformId: target.platform.id }).set(admin.auth).expect(200);
    const entry = body.find((candidate: { accountId: number }) => candidate.accountId === target.account.id);
    expect(entry.mails.map((mail: Record<string, unknown>) => [mail.kind, mail.action, mail.authentication, mail.sender])).to.deep.equal([
      ['newSignIn', 'attention', 'verified', 'noreply@tm.openai.com'],
      ['ignore', 'none', 'verified', 'noreply@tm.openai.com'],
      ['unrecognised', 'unclassified', 'verified', 'noreply@tm.openai.com'],
    ]);
    expect(entry.mails[2].subject).to.equal(unknownPlatformMail('chatgpt', target.address).subject);
    expect(entry.mails[1].subject).to.equal('Your ChatGPT code is ••••••');
    expect(Object.keys(entry.mails[0]).sort()).to.deep.equal(['action', 'authentication', 'id', 'kind', 'linkDropped', 'receivedAt', 'sender', 'subject']);
    expect(JSON.stringify(body)).to.not.contain(code);
    expect(JSON.stringify(await knex()('account_alert_mail').where({ platform_account_id: target.account.id }))).to.not.contain(code);
  });

  it('every active account broken: the platform goes off sale (its page says so in both languages, orders are refused, staff are told once) and comes back when one is repaired', async () => {
    const first = await accountOn('netflix');
    const second = await accountOn('netflix', first.platform);
    const { platform } = first;
    const holder = await loginAs('user', { app });
    await subscribe(container, holder, platform);
    const offSale = async () => (await api(app).get('/api/platform/getplatform').query({ id: platform.id, languageId: 1 }).expect(200)).body.platform.offSale;
    const page = async (lang: 'en' | 'ko') => (await request(app).get(`/platform/${platform.id}`).query({ lang, currency: 'EUR' }).expect(200)).text;
    const order = (buyer: TestUser) =>
      api(app)
        .post('/api/order/insert')
        .set(buyer.auth)
        .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, currency: 'EUR' });
    const offSaleAlerts = () => knex()('email_outbox').where({ to_address: staffAlert }).whereLike('idempotency_key', `platform:${platform.id}:off-sale:%`);

    // One account broken by its platform's mail: still on sale.
    await hear(first, alertMail('netflix', 'passwordChanged', first.address));
    expect(await healthOf(first.account.id)).to.equal('broken');
    expect(await offSale()).to.equal(false);
    expect(await page('en')).to.not.contain('data-testid="platform-off-sale"');

    // Staff mark the last one broken: off sale, everywhere at once.
    await api(app)
      .post('/api/subscribe/setaccounthealth')
      .set(admin.auth)
      .send({ accountId: second.account.id, state: 'broken', reason: 'owner locked us out' })
      .expect(200);
    await waitFor(async () => (await offSale()) === true, { what: 'the platform off sale' });
    expect(await page('en'))
      .to.contain('data-testid="platform-off-sale"')
      .and.contain('Off sale for now');
    expect(await page('ko'))
      .to.contain('data-testid="platform-off-sale"')
      .and.contain('지금은 판매하지 않습니다');
    const buyer = await loginAs('user', { app });
    const refused = await order(buyer).expect(409);
    expect(refused.body.code).to.equal('platform_off_sale');
    const korean = await order(buyer).set('Accept-Language', 'ko').expect(409);
    expect(korean.body.code).to.equal('platform_off_sale');

    // Another mail while it is off sale changes nothing more: one alert per incident, by e-mail.
    await hear(second, alertMail('netflix', 'onHold', second.address));
    const mail = await harness().mailTo(staffAlert, (message) => message.subject === `Off sale: every ${platform.name} account is broken`);
    expect(mail.text).to.contain('All 2 active').and.contain('/jve/health');
    expect(await offSaleAlerts()).to.have.length(1);
    expect(await knex()('audit_log').where({ action: 'platform.offSale', target_id: String(platform.id) })).to.have.length(1);

    // Repaired: back on sale, an order goes through.
    await api(app)
      .post('/api/subscribe/setaccounthealth')
      .set(admin.auth)
      .send({ accountId: first.account.id, state: 'ok', reason: 'password reset by us' })
      .expect(200);
    await waitFor(async () => (await offSale()) === false, { what: 'the platform back on sale' });
    expect(await page('en')).to.not.contain('data-testid="platform-off-sale"');
    await order(buyer).expect(200);
    expect(await knex()('audit_log').where({ action: 'platform.onSale', target_id: String(platform.id) })).to.have.length(1);
    expect(await offSaleAlerts()).to.have.length(1);
  });

  it('a platform whose accounts were all broken outside the flow (an upgrade, a fix in the database) goes off sale at the next watch run, and back', async () => {
    const target = await accountOn('netflix');
    const offSince = async () => (await knex()('platforms').where({ id: target.platform.id }).first('off_sale_since')).off_sale_since as Date | null;
    await knex()('platform_accounts').where({ id: target.account.id }).update({ health: 'broken', health_since: new Date() });
    expect(await offSince()).to.equal(null);
    const reader = container.get(MailboxReaderService);
    await flow().keepWatching(reader);
    expect(await offSince()).to.be.instanceOf(Date);
    await knex()('platform_accounts').where({ id: target.account.id }).update({ health: 'ok' });
    await flow().keepWatching(reader);
    expect(await offSince()).to.equal(null);
  });
});
