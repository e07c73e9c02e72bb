import { expect } from 'chai';
import net from 'node:net';
import type { Express } from 'express';
import type { Container } from 'inversify';
import { freePort, MAILBOX_READ_LIMIT, SystemClock, MailboxReaderService } from '@subshare/core';
import { createApp } from '@subshare/http';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { containerWith, tracedApp } from '../support/containers.js';
import { startDovecot, type TestDovecot } from '../support/dovecot.js';
import { harness } from '../support/harness.js';
import {
  mailboxAccount,
  mailboxConfig,
  netflixLink,
  netflixMail,
  openAiMail,
  POLL_PACE,
  randomCode,
  subscribe,
  type MailboxAccount,
} from '../support/mailboxes.js';
import { waitFor } from '../support/wait.js';

const LINK = '/api/email/getnvlink';
const CODE = '/api/email/getchgptcode';
const MINUTE = 60_000;

/** The JSON lines a traced app logged. */
const logLines = (text: string): Array<Record<string, unknown>> =>
  text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * The panel's verification fetch against a real Dovecot: household links (video, type 0) and
 * login codes (AI chat, type 8) read from the account's mailbox over IMAP.
 */
describe('verification links and login codes from the mailboxes (getnvlink, getchgptcode)', function () {
  this.timeout(60_000);
  let dovecot: TestDovecot;
  let app: Express;
  let container: Container;
  let logged: () => string;
  const secrets: string[] = [];
  const others: Container[] = [];

  before(async () => {
    dovecot = await startDovecot();
    // Real time: IMAP's received dates are real, and the run's shared test clock may have been moved on.
    ({ app, container, logged } = tracedApp({ config: mailboxConfig(dovecot.url), clock: new SystemClock() }));
  });

  after(async () => {
    for (const c of [container, ...others]) await c?.get(MailboxReaderService).close();
    await dovecot?.destroy();
  });

  /** A buyer holding a slot on a fresh account of this platform type. */
  async function holder(category: number): Promise<{ mailbox: MailboxAccount; buyer: TestUser; subscriptionId: number }> {
    const mailbox = await mailboxAccount(container, dovecot, category);
    secrets.push(mailbox.mailboxPassword);
    const buyer = await loginAs('user', { app });
    const subscriptionId = await subscribe(container, buyer, mailbox.platform);
    return { mailbox, buyer, subscriptionId };
  }

  const poll = (path: string, user: TestUser, subscriptionId: number | string, extra: Record<string, string> = {}) =>
    api(app)
      .get(path)
      .set(user.auth)
      .query({ subscriptionId, ...extra });

  it('a household link: null until it arrives, then the link, heard at once over IDLE', async () => {
    const { mailbox, buyer, subscriptionId } = await holder(0);
    const logMark = logged().length; // this test's log lines only
    const first = await poll(LINK, buyer, subscriptionId).expect(200);
    expect(first.body).to.deep.equal({ link: null });
    expect(first.headers['cache-control']).to.equal('no-store');

    // The first read opened a watch (IMAP IDLE) on the mailbox.
    const reads = () => logLines(logged().slice(logMark)).filter((line) => line.msg === 'mailbox read');
    expect(reads().map((line) => line.watching)).to.deep.equal([true]);

    const link = netflixLink('travel');
    secrets.push(link);
    await dovecot.deliver(mailbox.email, netflixMail(mailbox.email, link));
    const found = await waitFor(async () => (await poll(LINK, buyer, subscriptionId).expect(200)).body.link, { what: 'the link', ...POLL_PACE });
    expect(found).to.equal(link);
    // The open IDLE connection heard it: no second read of the mailbox, so it did not wait for
    // the 5-second read cache to run out (the polls above went on past it otherwise).
    expect(logLines(logged().slice(logMark)).some((line) => line.msg === 'mailbox watch heard new mail')).to.equal(true);
    expect(reads()).to.have.length(1);

    // A newer household-update e-mail wins over the older travel one.
    const newer = netflixLink('household');
    secrets.push(newer);
    await dovecot.deliver(mailbox.email, netflixMail(mailbox.email, newer, new Date(Date.now() + 1_000)));
    expect(
      await waitFor(async () => ((await poll(LINK, buyer, subscriptionId).expect(200)).body.link === newer ? true : undefined), {
        what: 'the newer link',
        ...POLL_PACE,
      }),
    ).to.equal(true);
  });

  it('mail that lands while the first read is under way is not missed', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { mailbox, buyer, subscriptionId } = await holder(0);
      const link = netflixLink();
      secrets.push(link);
      await Promise.all([poll(LINK, buyer, subscriptionId).expect(200), dovecot.deliver(mailbox.email, netflixMail(mailbox.email, link))]);
      expect(await waitFor(async () => (await poll(LINK, buyer, subscriptionId).expect(200)).body.link, { what: 'the link', ...POLL_PACE })).to.equal(link);
    }
  });

  it('a ChatGPT login code: the six digits, not a colour code or a year', async () => {
    const { mailbox, buyer, subscriptionId } = await holder(8);
    expect((await poll(CODE, buyer, subscriptionId).expect(200)).body).to.deep.equal({ code: null });
    const code = randomCode();
    secrets.push(code);
    await dovecot.deliver(mailbox.email, openAiMail(mailbox.email, code));
    expect(await waitFor(async () => (await poll(CODE, buyer, subscriptionId).expect(200)).body.code, { what: 'the code', ...POLL_PACE })).to.equal(code);

    // The sign-up variant: no code in the subject, the code after "continue:" in a text part.
    const other = await holder(8);
    const second = randomCode();
    secrets.push(second);
    await dovecot.deliver(other.mailbox.email, {
      from: 'OpenAI <otp@tm1.openai.com>',
      to: other.mailbox.email,
      subject: 'Your temporary ChatGPT verification code',
      text: `Enter this temporary verification code to continue:\n\n${second}\n\nPlease ignore this e-mail if this wasn't you. 2026`,
    });
    expect((await poll(CODE, other.buyer, other.subscriptionId).expect(200)).body).to.deep.equal({ code: second });
  });

  it('ignores mail received before the moment asked for, to another address, or from someone else', async () => {
    const { mailbox, buyer, subscriptionId } = await holder(0);
    const stale = netflixLink();
    secrets.push(stale);
    // Received 20 minutes ago: the link has expired (15 minutes), it is not the buyer's request.
    await dovecot.deliver(mailbox.email, netflixMail(mailbox.email, stale, new Date(Date.now() - 20 * MINUTE)));
    // Fresh, but addressed to another account that shares nothing with this one.
    await dovecot.deliver(mailbox.email, netflixMail('someone-else@example.test', netflixLink()));
    // Fresh and addressed right, but not from Netflix.
    await dovecot.deliver(mailbox.email, { ...netflixMail(mailbox.email, netflixLink()), from: 'Netflix <info@netflix-account.example>' });
    expect((await poll(LINK, buyer, subscriptionId).expect(200)).body).to.deep.equal({ link: null });

    // `since` narrows the window: a link received 2 minutes ago is older than a request made 1 minute ago.
    const recent = netflixLink();
    secrets.push(recent);
    const other = await holder(0);
    await dovecot.deliver(other.mailbox.email, netflixMail(other.mailbox.email, recent, new Date(Date.now() - 2 * MINUTE)));
    const since = new Date(Date.now() - MINUTE).toISOString();
    expect((await poll(LINK, other.buyer, other.subscriptionId, { since }).expect(200)).body).to.deep.equal({ link: null });
    expect(
      await waitFor(async () => (await poll(LINK, other.buyer, other.subscriptionId).expect(200)).body.link, { what: 'the recent link', ...POLL_PACE }),
    ).to.equal(recent);
    // …and cannot widen it past 15 minutes.
    const wide = String(Date.now() - 60 * MINUTE);
    expect((await poll(LINK, buyer, subscriptionId, { since: wide }).expect(200)).body).to.deep.equal({ link: null });
  });

  it('only the slot holder: another buyer 403, no token 401, unknown 404, bad input 400', async () => {
    const { buyer, subscriptionId } = await holder(0);
    const stranger = await loginAs('user', { app });
    const refused = await poll(LINK, stranger, subscriptionId).expect(403);
    expect(refused.body.code).to.equal('forbidden');
    await api(app).get(LINK).query({ subscriptionId }).expect(401);
    const unknown = await poll(LINK, buyer, 2_000_000_000).expect(404);
    expect(unknown.body.code).to.equal('subscription_not_found');
    const bad = await poll(LINK, buyer, 'abc').expect(400);
    expect(bad.body.errors).to.have.key('subscriptionId');
    await api(app).get(CODE).set(buyer.auth).expect(400);
  });

  it('staff may read any subscription, and every read is audited without the link', async () => {
    const { mailbox, buyer, subscriptionId } = await holder(0);
    const link = netflixLink();
    secrets.push(link);
    await dovecot.deliver(mailbox.email, netflixMail(mailbox.email, link));
    const moderator = await loginAs('moderator', { app });
    expect((await poll(LINK, moderator, subscriptionId).expect(200)).body).to.deep.equal({ link });
    const entries = await harness().knex('audit_log').where({ action: 'mailbox.read', actor_user_id: moderator.id });
    expect(entries).to.have.length(1);
    expect(entries[0]).to.include({ target_type: 'subscription', target_id: String(subscriptionId) });
    expect(entries[0].details).to.include({ subscriptionId, userId: buyer.id, kind: 'householdLink', found: true });
    expect(JSON.stringify(entries[0])).to.not.contain(link);
    // The buyer's own reads are not staff reads.
    await poll(LINK, buyer, subscriptionId).expect(200);
    expect(
      await harness()
        .knex('audit_log')
        .where({ action: 'mailbox.read', target_id: String(subscriptionId) }),
    ).to.have.length(1);
  });

  it('the wrong platform type: 409 (links for video, codes for AI chat)', async () => {
    const video = await holder(0);
    const chat = await holder(8);
    expect((await poll(CODE, video.buyer, video.subscriptionId).expect(409)).body.code).to.equal('wrong_platform_type');
    expect((await poll(LINK, chat.buyer, chat.subscriptionId).expect(409)).body.code).to.equal('wrong_platform_type');
    const other = await holder(1);
    await poll(LINK, other.buyer, other.subscriptionId).expect(409);
  });

  it('polling is allowed comfortably, a script is refused with 429', async () => {
    const { buyer, subscriptionId } = await holder(0);
    for (let i = 0; i < MAILBOX_READ_LIMIT.limit; i += 1) await poll(LINK, buyer, subscriptionId).expect(200);
    const refused = await poll(LINK, buyer, subscriptionId).expect(429);
    expect(refused.body.code).to.equal('too_many_mailbox_reads');
    expect(Number(refused.headers['retry-after'])).to.be.above(0);
  });

  it('a mailbox server that is down or silent: 503 with a clear message, within the time budget', async () => {
    const { mailbox, buyer, subscriptionId } = await holder(0);
    // Nothing listens on this port.
    const deadPort = await freePort();
    const dead = containerWith({ config: mailboxConfig(`imap://127.0.0.1:${deadPort}`), clock: new SystemClock() });
    others.push(dead);
    const refused = await api(createApp(dead, { accessLog: false }))
      .get(LINK)
      .set(buyer.auth)
      .query({ subscriptionId })
      .expect(503);
    expect(refused.body).to.deep.equal({ message: 'The mailbox cannot be reached right now. Please try again in a minute.', code: 'mailbox_unavailable' });

    // A server that accepts and never speaks: the one-second budget ends the wait. The shop
    // gives up (a timeout, not a refusal) and closes its connection. A mailbox of its own: the
    // first one is owned by the container above, whose published failure answers the next seconds.
    const silentOne = await holder(0);
    const sockets: net.Socket[] = [];
    const closedByShop: boolean[] = [];
    const silent = net.createServer((socket) => {
      sockets.push(socket);
      socket.on('close', () => closedByShop.push(true));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const slow = tracedApp({ config: mailboxConfig(`imap://127.0.0.1:${port}`, { timeoutSeconds: 1 }), clock: new SystemClock() });
      others.push(slow.container);
      const timedOut = await api(slow.app)
        .get(LINK)
        .set(silentOne.buyer.auth)
        .set('Accept-Language', 'ko')
        .query({ subscriptionId: silentOne.subscriptionId })
        .expect(503);
      const failures = logLines(slow.logged()).filter((line) => line.msg === 'mailbox read failed');
      expect(failures.map((line) => line.reason)).to.deep.equal(['timeout']);
      expect(String(failures[0].detail)).to.match(/within 1000 ms|in time/);
      await waitFor(() => closedByShop.length === sockets.length && sockets.length > 0, { what: 'the shop to close its connection to the silent server' });
      expect(timedOut.body).to.deep.equal({ message: 'The mailbox cannot be reached right now. Please try again in a minute.', code: 'mailbox_unavailable' });
    } finally {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }

    // Mailbox reading switched off (no MAILBOX_IMAP_URL): 503 as well, never a hang.
    const off = containerWith({ clock: new SystemClock() });
    const offAnswer = await api(createApp(off, { accessLog: false }))
      .get(LINK)
      .set(buyer.auth)
      .query({ subscriptionId })
      .expect(503);
    expect(offAnswer.body.code).to.equal('mailbox_reading_off');

    // And the real Dovecot stopped: a mailbox never read before cannot be read now.
    const fresh = await holder(0);
    await dovecot.stop();
    try {
      const down = await poll(LINK, fresh.buyer, fresh.subscriptionId).expect(503);
      expect(down.body.code).to.equal('mailbox_unavailable');
    } finally {
      await dovecot.start();
    }
    expect(mailbox.email).to.be.a('string');
  });

  it('never writes a link, code or mailbox password to the logs, even at trace level', () => {
    expect(logged()).to.contain('/api/email/getnvlink');
    expect(logged()).to.contain('mailbox read');
    expect(secrets.length).to.be.above(5);
    for (const secret of secrets) expect(logged()).to.not.contain(secret);
  });
});
