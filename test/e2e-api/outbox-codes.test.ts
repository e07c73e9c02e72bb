import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Express } from 'express';
import type { Container } from 'inversify';
import type { PgBoss } from 'pg-boss';
import {
  buildContainer,
  createPgBoss,
  createQueues,
  EMAIL_KIND,
  loadConfig,
  PgBossJobQueue,
  JOB_DECLARATIONS,
  TOKENS,
  type Logger,
  NotificationsService,
} from '@subshare/core';
import { createApp } from '@subshare/http';
import { startWorker, type WorkerHandle } from '@subshare/worker';
import { api, loginAs, uniqueEmail, type TestUser } from '../support/agent.js';
import { harness, testEnv } from '../support/harness.js';
import { startSmtpServer, type CapturedMail, type TestSmtpServer } from '../support/smtp.js';
import { waitFor } from '../support/wait.js';

/**
 * One-time codes in e-mails (sign-up verification, password reset) are secrets of the buyer:
 * staff reading the outbox (GET /api/email/outbox, /api/email/outbox/:id) never see them, whatever
 * the e-mail's status, and a code e-mail is delivered ahead of any backlog of other mail.
 *
 * The e-mails here go through a world of their own (its own SMTP server, which the test can
 * pause, and its own pg-boss schema and worker) on the run's database, so a backlog built here
 * slows no other test file and no other file's worker delivers these e-mails.
 */
describe('codes in e-mails stay secret from staff and come first', function () {
  this.timeout(120_000);
  const knex = () => harness().knex;
  const schema = `pgboss_codes_${randomBytes(4).toString('hex')}`;

  let smtp: TestSmtpServer;
  let boss: PgBoss;
  let container: Container;
  let worker: WorkerHandle;
  /** The shop of this world: its e-mails go to `smtp`, through this file's worker. */
  let app: Express;
  let moderator: TestUser;

  before(async () => {
    const { config, db, clock } = harness();
    smtp = await startSmtpServer();
    // Same secrets as the harness app, so tokens from either work in both.
    const own = {
      ...loadConfig(testEnv(db.url, { SMTP_URL: smtp.url, TRUST_PROXY: 'loopback' })),
      tokenSecret: config.tokenSecret,
      credentialsKey: config.credentialsKey,
    };
    const logger = harness().container.get<Logger>(TOKENS.Logger);
    boss = createPgBoss(db.url, { schema, supervise: false, logger });
    await boss.start();
    await createQueues(boss, JOB_DECLARATIONS);
    container = buildContainer({ config: own, knex: knex(), logger, jobQueue: new PgBossJobQueue(boss), clock });
    app = createApp(container, { accessLog: false });
    worker = await startWorker(boss, container);
    moderator = await loginAs('moderator');
  });

  after(async () => {
    smtp?.resume();
    await worker?.stop();
    await boss?.stop({ graceful: false, timeout: 2_000 });
    await smtp?.stop();
    await knex().raw('drop schema if exists ?? cascade', [schema]);
  });

  afterEach(() => smtp.resume());

  const heldFor = (address: string) =>
    waitFor(() => smtp.held.find((mail) => mail.to.includes(address)), { what: `an e-mail to ${address} reaching the SMTP server`, timeoutMs: 15_000 });
  const arrivedFor = (address: string) =>
    waitFor(() => smtp.messagesTo(address)[0], { what: `an e-mail to ${address} accepted by the SMTP server`, timeoutMs: 15_000 });
  const codeIn = (mail: CapturedMail) => {
    const code = /(?<!\d)(\d{6})(?!\d)/.exec(mail.text)?.[1];
    expect(code, 'a 6-digit code in the delivered e-mail').to.be.a('string');
    return code!;
  };

  /** Everything a moderator can read of this user's e-mails: the list and each e-mail with its bodies. */
  async function staffView(userId: number): Promise<{ text: string; emails: Array<Record<string, unknown>> }> {
    const list = await api().get('/api/email/outbox').set(moderator.auth).query({ userId }).expect(200);
    const emails: Array<Record<string, unknown>> = [];
    for (const item of list.body.items as Array<{ id: number }>) {
      emails.push((await api().get(`/api/email/outbox/${item.id}`).set(moderator.auth).expect(200)).body);
    }
    return { text: JSON.stringify(list.body) + JSON.stringify(emails), emails };
  }

  it('a moderator reading a pending sign-up code e-mail finds the code masked, while the buyer receives it and it works', async () => {
    const buyer = await loginAs('user', { verified: false, app });
    smtp.pause();
    await api(app).post('/api/user/sendverificationcode').set(buyer.auth).send({ email: buyer.email }).expect(200);
    await heldFor(buyer.email);

    const [row] = await knex()('email_outbox').where({ user_id: buyer.id, kind: EMAIL_KIND.verificationCode });
    expect(row.status).to.equal('pending');
    const seen = await staffView(buyer.id);
    expect(seen.emails).to.have.length(1);
    expect(seen.emails[0]).to.include({ id: row.id, kind: EMAIL_KIND.verificationCode, status: 'pending' });
    expect(seen.emails[0].text).to.contain('••••••');
    expect(seen.emails[0].html).to.contain('••••••');

    smtp.resume();
    const code = codeIn(await arrivedFor(buyer.email));
    expect(seen.text, 'the code in what staff read').to.not.contain(code);
    // Neither the stored e-mail nor anything staff can read afterwards holds it.
    const after = await waitFor(async () => {
      const stored = await knex()('email_outbox').where({ id: row.id }).first();
      return stored.status === 'sent' ? stored : undefined;
    });
    expect(JSON.stringify(after)).to.not.contain(code);
    expect((await staffView(buyer.id)).text).to.not.contain(code);

    const verified = await api().post('/api/user/sendverificationcodecallback').send({ email: buyer.email, code }).expect(200);
    expect(verified.body.isEmailVerified).to.equal(true);
  });

  it('a password-reset code is masked for staff as well, and resets the password once delivered', async () => {
    const owner = await loginAs('user');
    smtp.pause();
    await api(app).post('/api/user/forgotpassword').send({ email: owner.email }).expect(200);
    const held = await heldFor(owner.email);
    expect(held.subject).to.match(/password reset/i);
    const seen = await staffView(owner.id);
    expect(seen.emails.map((email) => email.status)).to.deep.equal(['pending']);
    expect(seen.emails[0].text).to.contain('••••••');

    smtp.resume();
    const code = codeIn(await arrivedFor(owner.email));
    expect(seen.text).to.not.contain(code);
    await api().post('/api/user/resetpassword').send({ email: owner.email, code, password: 'new-pass-42' }).expect(200);
  });

  it('staff sending kind 5 (sendemail) cannot read the code they caused, pending or sent', async () => {
    const admin = await loginAs('admin', { app });
    const buyer = await loginAs('user', { verified: false });
    smtp.pause();
    const sent = await api(app).post('/api/email/sendemail').set(admin.auth).send({ userId: buyer.id, emailType: EMAIL_KIND.verificationCode }).expect(200);
    await heldFor(buyer.email);
    const staffAnswers = [JSON.stringify(sent.body)];
    staffAnswers.push((await staffView(buyer.id)).text);
    staffAnswers.push(JSON.stringify((await api().get(`/api/email/outbox/${sent.body.id}`).set(admin.auth).expect(200)).body));

    smtp.resume();
    const code = codeIn(await arrivedFor(buyer.email));
    for (const answer of staffAnswers) expect(answer).to.not.contain(code);
    await api().post('/api/user/sendverificationcodecallback').send({ email: buyer.email, code }).expect(200);
  });

  it('without SMTP (the outbox is the destination) a code e-mail is kept masked: no 6 digits for staff, none stored', async () => {
    const { app: keeping } = harness().appWith({ SMTP_URL: '' });
    const buyer = await loginAs('user', { verified: false, app: keeping });
    await api(keeping).post('/api/user/sendverificationcode').set(buyer.auth).send({ email: buyer.email }).expect(200);
    const [row] = await knex()('email_outbox').where({ user_id: buyer.id, kind: EMAIL_KIND.verificationCode });
    expect(row.status).to.equal('kept');

    const seen = await staffView(buyer.id);
    expect(seen.emails[0].text).to.contain('••••••');
    // Six digits in a row, not a colour (#333333): no code anywhere staff read, nor in the stored row.
    const sixDigits = /(?<![\d#])\d{6}(?!\d)/;
    for (const field of ['subject', 'text', 'html']) {
      expect(String(seen.emails[0][field]), `${field} for staff`).to.not.match(sixDigits);
      expect(String(row[field]), `stored ${field}`).to.not.match(sixDigits);
    }
  });

  it('a code e-mail reaches the SMTP server while 30 purchase e-mails are stuck in front of it, and arrives before they drain', async () => {
    const notifications = container.get(NotificationsService);
    const bulk = uniqueEmail('bulk');
    const buyer = await loginAs('user', { verified: false, app });
    smtp.pause();
    for (let orderId = 1; orderId <= 30; orderId++) {
      await notifications.enqueue({
        kind: EMAIL_KIND.purchasedActiveSubscribe,
        to: bulk,
        languageId: 1,
        data: { orderId, platformName: 'Bulk Platform', endTime: new Date(Date.now() + 30 * 86_400_000) },
      });
    }
    // The worker is busy with the backlog: its delivery slots hang on the paused server.
    await heldFor(bulk);

    await api(app).post('/api/user/sendverificationcode').set(buyer.auth).send({ email: buyer.email }).expect(200);
    await heldFor(buyer.email);
    expect(smtp.messagesTo(bulk), 'no purchase e-mail accepted yet').to.have.length(0);

    smtp.resume();
    await waitFor(() => smtp.messagesTo(bulk).length === 30 && smtp.messagesTo(buyer.email).length === 1, {
      what: 'the backlog and the code delivered',
      timeoutMs: 60_000,
    });
    const order = smtp.messages.filter((mail) => mail.to.includes(bulk) || mail.to.includes(buyer.email)).map((mail) => mail.to.includes(buyer.email));
    const position = order.indexOf(true);
    expect(order.length - position - 1, 'purchase e-mails delivered after the code').to.be.at.least(20);
  });
});
