import { expect } from 'chai';
import { EMAIL_KIND, type AuthenticatedUser, ReplacementFlow } from '@subshare/core';
import { api, createUser, loginAs, type TestUser } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { tracedApp } from '../support/containers.js';
import type { CapturedMail } from '../support/smtp.js';
import { activation, buyer, createAccount, createOrder, createPlatform, markPaidQuietly, platformJobsSettled, type TestPlatform } from '../support/shop.js';

useWorker();

/**
 * POST /api/email/sendemail { userId, emailType } (staff): one e-mail of a kind to a user, in
 * their language, with data from their own records, through the outbox to the real SMTP server;
 * audited; a double click sends once.
 */
describe('staff send an e-mail of any kind (sendemail)', function () {
  this.timeout(120_000);
  const knex = () => harness().knex;
  const HANGUL = /[\uac00-\ud7a3]/;

  let admin: TestUser;
  let moderator: TestUser;
  /** A Korean buyer with every kind of record: an active subscription (a replacement), an ended one, a waiting order. */
  let korean: AuthenticatedUser;
  let streaming: TestPlatform;
  let replacement: { oldId: number; newId: number; orderId: number };
  let endedSubscriptionId: number;
  let waitingOrderId: number;
  let refundedOrderId: number;

  const send = (staff: TestUser, body: object) => api().post('/api/email/sendemail').set(staff.auth).send(body);

  /** The e-mail with this outbox id as the SMTP server received it (Message-ID `<outbox-<id>.…>`). */
  const delivered = (to: string, outboxId: number) => harness().mailTo(to, (mail) => mail.messageId.startsWith(`<outbox-${outboxId}.`));
  const deliveredCount = (to: string, outboxId: number) =>
    harness()
      .smtp.messagesTo(to)
      .filter((mail) => mail.messageId.startsWith(`<outbox-${outboxId}.`)).length;
  const staffEmailsTo = (userId: number) => knex()('email_outbox').where({ user_id: userId }).whereLike('idempotency_key', 'staff-email:%').orderBy('id');

  async function activatedOrder(user: AuthenticatedUser, platform: TestPlatform): Promise<{ orderId: number; subscriptionId: number }> {
    await platformJobsSettled(platform.id);
    const orderId = await createOrder(user, platform);
    await markPaidQuietly(orderId);
    const result = await activation().activate(orderId);
    expect(result.outcome).to.equal('activated');
    return { orderId, subscriptionId: result.subscriptions[0].subscriptionId };
  }

  before(async () => {
    [admin, moderator] = await Promise.all([loginAs('admin'), loginAs('moderator')]);
    korean = await buyer({ languageId: 2 });

    // Active: bought, then moved to another account (so it is also the newest replacement).
    streaming = await createPlatform({ slotsCount: 4 });
    await createAccount(streaming.id, 4);
    const first = await activatedOrder(korean, streaming);
    await createAccount(streaming.id, 4);
    const replaced = await harness().container.get(ReplacementFlow).replace({ label: 'test' }, { subscribeId: first.subscriptionId, orderId: first.orderId });
    replacement = { oldId: first.subscriptionId, newId: replaced.subscription.id, orderId: first.orderId };

    // Ended: another platform, its subscription past its end (as the expiry work leaves it).
    const other = await createPlatform({ slotsCount: 1 });
    await createAccount(other.id, 1);
    const ended = await activatedOrder(korean, other);
    await knex()('subscriptions').where({ id: ended.subscriptionId }).update({ status: 'ended', ended_at: harness().clock.now() });
    endedSubscriptionId = ended.subscriptionId;

    // Waiting: paid on a family-invitation platform, so nothing activates it behind the test's back.
    const family = await createPlatform({ needsInvitation: true });
    waitingOrderId = await createOrder(korean, family);
    await markPaidQuietly(waitingOrderId);

    // Refunded: a paid order whose €4.99 payment went back less a 25-cent fee, as a staff refund leaves it.
    refundedOrderId = await createOrder(korean, await createPlatform());
    const now = harness().clock.now();
    await knex()('orders').where({ id: refundedOrderId }).update({ state: 5, paid_at: now });
    const [payment] = await knex()('payments')
      .insert({ order_id: refundedOrderId, provider: 'demo', method: 1, amount_minor: 499, currency: 'EUR', status: 'refunded', settled_at: now })
      .returning('id');
    await knex()('refunds').insert({
      order_id: refundedOrderId,
      payment_id: payment.id,
      source: 'staff',
      status: 'succeeded',
      amount_minor: 474,
      fee_minor: 25,
      currency: 'EUR',
      created_at: now,
      updated_at: now,
      completed_at: now,
    });
    // The money ledger's rows a staff refund leaves (what the e-mail's amount is read from).
    const ledgerRow = {
      provider: 'demo',
      event_type: 'test',
      order_id: refundedOrderId,
      payment_id: payment.id,
      currency: 'EUR',
      recorded_at: now,
      applied_at: now,
    };
    await knex()('money_events').insert([
      {
        ...ledgerRow,
        event_key: `test:${payment.id}/payment`,
        kind: 'payment',
        subject: String(payment.id),
        status: 'paid',
        amount_minor: 499,
        effect: 'paid',
      },
      {
        ...ledgerRow,
        event_key: `test:${payment.id}/refund`,
        kind: 'refund',
        subject: 'demo-refund-1',
        status: 'succeeded',
        amount_minor: 474,
        effect: 'access_ended',
      },
    ]);
  });

  it('sends every kind that has data once, in the buyer’s language, with that data, to the real SMTP server', async () => {
    const koreanName = `${streaming.name} (KO)`;
    const expectations: Array<{ kind: number; check(mail: CapturedMail): void }> = [
      { kind: EMAIL_KIND.welcome, check: (mail) => expect(mail.subject).to.contain('환영합니다') },
      { kind: EMAIL_KIND.purchasedActiveSubscribe, check: (mail) => expect(mail.subject).to.contain(koreanName).and.contain(`#${replacement.orderId}`) },
      { kind: EMAIL_KIND.purchasedNotActiveSubscribe, check: (mail) => expect(mail.subject).to.contain(`#${waitingOrderId}`) },
      {
        kind: EMAIL_KIND.subscribeActive,
        check: (mail) => expect(mail.text).to.contain(`#${replacement.orderId}`).and.contain(`#${replacement.newId}`).and.contain(koreanName),
      },
      { kind: EMAIL_KIND.trustPilotInvite, check: (mail) => expect(mail.subject).to.match(HANGUL) },
      { kind: EMAIL_KIND.appleTVActive, check: (mail) => expect(mail.subject).to.contain(koreanName) },
      {
        kind: EMAIL_KIND.expiryReminder,
        check: (mail) =>
          expect(mail.subject)
            .to.contain(koreanName)
            .and.match(/\d+일 후 만료/),
      },
      { kind: EMAIL_KIND.subscriptionEnded, check: (mail) => expect(mail.text).to.contain(`#${endedSubscriptionId}`).and.contain('종료') },
      {
        // The ID the buyer knows (issue 33): the first of the replacement chain.
        kind: EMAIL_KIND.subscriptionReplaced,
        check: (mail) => expect(mail.text).to.contain(`#${replacement.oldId}`).and.contain(koreanName),
      },
      {
        kind: EMAIL_KIND.refunded,
        check: (mail) => {
          expect(mail.subject).to.contain(`#${refundedOrderId}`).and.contain('환불');
          expect(mail.text).to.contain('€4.74');
        },
      },
    ];

    const sent: Array<{ kind: number; id: number }> = [];
    for (const { kind } of expectations) {
      const res = await send(kind % 2 === 0 ? admin : moderator, { userId: korean.id, emailType: kind }).expect(200);
      expect(res.body).to.include({ kind, to: korean.email, userId: korean.id, languageId: 2, repeated: false });
      expect(res.body.id).to.be.a('number');
      sent.push({ kind, id: res.body.id });
    }
    for (const [index, { kind, id }] of sent.entries()) {
      const mail = await delivered(korean.email, id);
      expect(mail.subject, `kind ${kind}`).to.match(HANGUL);
      expectations[index].check(mail);
      expect(deliveredCount(korean.email, id), `kind ${kind}`).to.equal(1);
    }
    const rows = await staffEmailsTo(korean.id);
    expect(rows.map((row) => row.kind)).to.deep.equal(expectations.map((entry) => entry.kind));
    expect(rows.every((row) => row.language_id === 2 && row.to_address === korean.email)).to.equal(true);
  });

  it('writes English for an English buyer', async () => {
    const english = await buyer({ languageId: 1 });
    const res = await send(admin, { userId: english.id, emailType: 'trustPilotInvite' }).expect(200);
    expect(res.body).to.include({ kind: EMAIL_KIND.trustPilotInvite, kindName: 'trustPilotInvite', languageId: 1 });
    const mail = await delivered(english.email, res.body.id);
    expect(mail.subject).to.equal('How was your experience with subshare?').and.not.match(HANGUL);
  });

  it('kind 5 issues a fresh verification code by the sendverificationcode rules: it logs the buyer in, and is never in the audit log', async () => {
    const unverified = await createUser({ verified: false, languageId: 1 });
    const res = await send(admin, { userId: unverified.id, emailType: EMAIL_KIND.verificationCode }).expect(200);
    expect(res.body).to.include({ kind: 5, kindName: 'verificationCode', to: unverified.email });
    const mail = await delivered(unverified.email, res.body.id);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code, 'a 6-digit code in the e-mail').to.be.a('string');

    const audit = await knex()('audit_log').where({ action: 'email.send', target_id: String(unverified.id) });
    expect(audit).to.have.length(1);
    expect(JSON.stringify(audit)).to.not.contain(code!);

    // The code is real: it verifies the address. Afterwards a code is refused as for the buyer.
    const login = await api().post('/api/user/sendverificationcodecallback').send({ email: unverified.email, code }).expect(200);
    expect(login.body.isEmailVerified).to.equal(true);
    harness().clock.advance(61_000);
    const again = await send(admin, { userId: unverified.id, emailType: 5 }).expect(409);
    expect(again.body.code).to.equal('already_verified');
  });

  it('never writes the verification code to the logs, even at trace level', async () => {
    const { app, logged } = tracedApp();
    const staff = await loginAs('admin', { app });
    const unverified = await createUser({ verified: false });
    const res = await api(app).post('/api/email/sendemail').set(staff.auth).send({ userId: unverified.id, emailType: 5 }).expect(200);
    const code = /\b(\d{6})\b/.exec((await delivered(unverified.email, res.body.id)).text)![1];

    expect(logged()).to.contain('/api/email/sendemail').and.contain('staff e-mail written');
    expect(logged()).to.not.match(new RegExp(`(?<!\\d)${code}(?!\\d)`));
  });

  it('kind 5 follows the buyer’s resend rule (429 within a minute of their own code); a double click answers the first code', async () => {
    const own = await loginAs('user', { verified: false });
    await api().post('/api/user/sendverificationcode').set(own.auth).send({}).expect(200);
    const tooSoon = await send(admin, { userId: own.id, emailType: 5 }).expect(429);
    expect(tooSoon.body.code).to.equal('code_requested_recently');

    harness().clock.advance(61_000);
    const first = await send(admin, { userId: own.id, emailType: 5 }).expect(200);
    const repeat = await send(admin, { userId: own.id, emailType: 'verificationCode' }).expect(200);
    expect(repeat.body).to.include({ id: first.body.id, repeated: true });
    expect(await knex()('verification_codes').where({ user_id: own.id })).to.have.length(2);
  });

  it('a double click sends once: the same user and kind within a minute answers the first e-mail, even across a minute boundary', async () => {
    const user = await buyer();
    const [a, b] = await Promise.all([send(admin, { userId: user.id, emailType: 0 }), send(moderator, { userId: user.id, emailType: '0' })]);
    expect(a.status).to.equal(200);
    expect(b.status).to.equal(200);
    expect(a.body.id).to.equal(b.body.id);
    expect([a.body.repeated, b.body.repeated].sort()).to.deep.equal([false, true]);

    // Another kind is another e-mail.
    const other = await send(admin, { userId: user.id, emailType: 4 }).expect(200);
    expect(other.body.id).to.not.equal(a.body.id);

    // Just before a minute ends, then just after it: still the same e-mail; a minute later a new one.
    const clock = harness().clock;
    clock.advance(61_000);
    const toBoundary = 60_000 - (clock.now().getTime() % 60_000);
    clock.advance(toBoundary > 2_000 ? toBoundary - 1_500 : toBoundary + 58_500);
    const beforeBoundary = await send(admin, { userId: user.id, emailType: 'welcome' }).expect(200);
    expect(beforeBoundary.body.repeated).to.equal(false);
    clock.advance(3_000);
    const afterBoundary = await send(admin, { userId: user.id, emailType: 'WELCOME' }).expect(200);
    expect(afterBoundary.body).to.include({ id: beforeBoundary.body.id, repeated: true });
    clock.advance(60_000);
    const later = await send(admin, { userId: user.id, emailType: 0 }).expect(200);
    expect(later.body.repeated).to.equal(false);

    const ids = [a.body.id, other.body.id, beforeBoundary.body.id, later.body.id];
    expect(new Set(ids).size).to.equal(4);
    expect((await staffEmailsTo(user.id)).map((row) => row.id)).to.deep.equal(ids);
    for (const id of ids) await delivered(user.email, id);
    for (const id of ids) expect(deliveredCount(user.email, id)).to.equal(1);
    expect(await knex()('audit_log').where({ action: 'email.send', target_id: String(user.id) })).to.have.length(4);
  });

  it('audits who sent which kind to whom, without the body', async () => {
    const user = await buyer();
    const res = await send(moderator, { userId: user.id, emailType: 0 }).expect(200);
    const [row] = await knex()('audit_log').where({ action: 'email.send', target_id: String(user.id) });
    expect(row).to.include({ actor_user_id: moderator.id, actor_label: moderator.email, target_type: 'user' });
    expect(row.ip).to.be.a('string');
    expect(row.details).to.deep.equal({ userId: user.id, kind: 0, kindName: 'welcome', outboxId: res.body.id });
  });

  it('answers 409 naming what is missing, and writes nothing', async () => {
    const empty = await buyer();
    const cases: Array<[number, string]> = [
      [EMAIL_KIND.purchasedActiveSubscribe, 'no_active_subscription'],
      [EMAIL_KIND.subscribeActive, 'no_active_subscription'],
      [EMAIL_KIND.appleTVActive, 'no_active_subscription'],
      [EMAIL_KIND.expiryReminder, 'no_active_subscription'],
      [EMAIL_KIND.purchasedNotActiveSubscribe, 'no_waiting_order'],
      [EMAIL_KIND.subscriptionEnded, 'no_ended_subscription'],
      [EMAIL_KIND.subscriptionReplaced, 'no_replacement'],
      [EMAIL_KIND.refunded, 'no_refunded_order'],
      [EMAIL_KIND.verificationCode, 'already_verified'],
    ];
    for (const [kind, code] of cases) {
      const res = await send(admin, { userId: empty.id, emailType: kind }).expect(409);
      expect(res.body.code, `kind ${kind}`).to.equal(code);
      expect(res.body.message).to.be.a('string').and.not.be.empty;
    }
    expect(await knex()('email_outbox').where({ user_id: empty.id })).to.have.length(0);
    expect(await knex()('audit_log').where({ action: 'email.send', target_id: String(empty.id) })).to.have.length(0);
  });

  it('answers 404 for an unknown user and 400 for bad input', async () => {
    const missing = await send(admin, { userId: 2_000_000_000, emailType: 0 }).expect(404);
    expect(missing.body).to.include({ code: 'user_not_found' });

    for (const emailType of [13, -1, 1.5, 'nope', null, true, [1]]) {
      const res = await send(admin, { userId: korean.id, emailType }).expect(400);
      expect(res.body.errors, JSON.stringify(emailType)).to.have.property('emailType');
    }
    const none = await send(admin, { userId: korean.id }).expect(400);
    expect(none.body.errors).to.deep.equal({ emailType: 'emailType is required' });
    const badUser = await send(admin, { userId: 'abc', emailType: 0 }).expect(400);
    expect(badUser.body.errors).to.have.property('userId');
    await api().post('/api/email/sendemail').set(admin.auth).set('Content-Type', 'application/json').send('{"userId":').expect(400);
  });

  it('is for staff only: a buyer gets 403, no token 401', async () => {
    const customer = await loginAs('user');
    const forbidden = await send(customer, { userId: customer.id, emailType: 0 }).expect(403);
    expect(forbidden.body.code).to.be.a('string');
    await api().post('/api/email/sendemail').send({ userId: customer.id, emailType: 0 }).expect(401);
    expect(await knex()('email_outbox').where({ user_id: customer.id }).whereLike('idempotency_key', 'staff-email:%')).to.have.length(0);
  });
});
