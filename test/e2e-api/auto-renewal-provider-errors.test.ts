import { expect } from 'chai';
import type { ExpiryFlow, RenewalFlow } from '@subshare/core';
import { api } from '../support/agent.js';
import { buyByCard, moveClockTo, remindersDelivered, useRenewalShop } from '../support/auto-renewal.js';
import type { ChargeFailure } from '../support/fake-stripe.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

useWorker();

const DAY = 24 * 3600_000;
const STAFF = 'renewal-ops@example.test';
const AUTO_RENEWAL = 12;
const RENEWAL_PROVIDER_ERROR = 14;

/**
 * A renewal charge that Stripe fails for a reason other than the card (issue 34): a request it
 * refuses (400), an error of its own (500), rate limiting (429), no answer in time. None of them is
 * a decline: the charge is retried on the dunning schedule with the slot held, staff get one e-mail
 * with Stripe's message and request id, the buyer is not told "declined", and after the last
 * attempt the buyer gets the payment link instead of an end. Through the local Stripe server, the
 * clock driven by the test, the passes called as the worker's jobs call them.
 */
describe('automatic renewal: provider errors are not declines', function () {
  this.timeout(90_000);
  const shop = useRenewalShop({ STAFF_ALERT_EMAILS: STAFF });
  const { stripe } = shop;
  const knex = () => harness().knex;
  let renewal: RenewalFlow;
  let expiry: ExpiryFlow;
  before(() => ({ renewal, expiry } = shop));

  const chargeOf = (subscriptionId: number) => knex()('renewal_charges').where({ subscription_id: subscriptionId }).orderBy('id', 'desc').first();
  const subscriptionRow = (id: number) => knex()('subscriptions').where({ id }).first();
  const outcomeOf = (run: Awaited<ReturnType<RenewalFlow['renewDue']>>, subscriptionId: number) =>
    run.charges.filter((charge) => charge.subscriptionId === subscriptionId).map((charge) => charge.outcome);
  const staffAlerts = (chargeId: number) =>
    knex()('email_outbox').where({ kind: RENEWAL_PROVIDER_ERROR }).andWhere('idempotency_key', 'like', `renewal:${chargeId}:provider-error:%`);
  const buyerMails = async (userId: number) =>
    ((await knex()('email_outbox').where({ user_id: userId, kind: AUTO_RENEWAL }).orderBy('id')) as Array<{ subject: string }>).map((row) => row.subject);

  /** A buyer with renewal on, reminded and delivered; the clock at the end of the period. */
  async function dueRenewal() {
    const bought = await buyByCard(shop);
    await renewal.renewDue(); // learns the saved card
    moveClockTo(new Date(bought.subscription.ends_at.getTime() - 2 * DAY));
    expect((await expiry.remindDue()).subscriptionIds).to.include(bought.subscription.id);
    await remindersDelivered();
    return bought;
  }

  it('a 400 from Stripe: retried a day later with the slot held, staff told once with its message and request id, the buyer not told', async () => {
    const { buyer, subscription, customer } = await dueRenewal();
    const end = subscription.ends_at.getTime();
    moveClockTo(end + 60_000);
    stripe.failNextCharge('invalid_request', { customer });
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['provider_error']);
    const charge = await chargeOf(subscription.id);
    expect(charge).to.include({ status: 'retrying', attempts: 1, failures: 0, decline_code: 'provider_error' });
    expect(charge.next_attempt_at.getTime()).to.equal(end + DAY);

    // Staff: one e-mail, Stripe's words and the request id of the refused request.
    const refused = stripe.chargeRequests.filter((entry) => entry.params.customer === customer).at(-1)!;
    const alert = await harness().mailTo(STAFF, (mail) => mail.text.includes(refused.requestId));
    expect(alert.subject).to.contain(`subscription #${subscription.id}`);
    expect(alert.text).to.contain('the shop sent something Stripe refuses').and.contain('HTTP 400');
    // The buyer: nothing about a decline (only the reminder so far).
    expect((await buyerMails(buyer.id)).filter((subject) => !/renews on/.test(subject))).to.deep.equal([]);

    // The slot is held: the expiry pass leaves the subscription.
    await expiry.endDue();
    expect(await subscriptionRow(subscription.id)).to.include({ status: 'active' });

    // Nothing more before the next attempt; then it charges.
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal([]);
    moveClockTo(end + DAY + 60_000);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['succeeded']);
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(1);
    await waitFor(async () => (await subscriptionRow(subscription.id)).ends_at.getTime() > end, { what: 'the subscription extended' });
    expect(await staffAlerts(charge.id)).to.have.length(1);
  });

  it('a 500, then 429, then no answer: three attempts on the dunning schedule, one staff e-mail, then the buyer gets the pay link, not an end', async function () {
    const { buyer, subscription, customer } = await dueRenewal();
    const end = subscription.ends_at.getTime();
    const failures: Array<[number, ChargeFailure]> = [
      [end + 60_000, 'api_error'],
      [end + DAY + 60_000, 'rate_limit'],
      [end + 3 * DAY + 60_000, 'timeout'],
    ];
    for (const [at, how] of failures) {
      moveClockTo(at);
      stripe.failNextCharge(how, { customer });
      expect(outcomeOf(await renewal.renewDue(), subscription.id), how).to.deep.equal(['provider_error']);
      await expiry.endDue();
      expect(await subscriptionRow(subscription.id), how).to.include({ status: 'active' });
    }
    const charge = await chargeOf(subscription.id);
    expect(charge).to.include({ status: 'requires_action', attempts: 3, failures: 0, decline_code: 'provider_error' });
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(0);
    expect(await staffAlerts(charge.id)).to.have.length(1);

    // The slot stays held as long as the payment link works (7 days after the end), and the buyer gets that link.
    expect((await subscriptionRow(subscription.id)).held_until.getTime()).to.equal(end + 7 * DAY);
    const mail = await harness().mailTo(buyer.email, (message) => message.subject.includes('with one click'));
    expect(mail.text).to.contain('not with your card');
    expect(await buyerMails(buyer.id)).not.to.satisfy((subjects: string[]) => subjects.some((subject) => /could not renew|has ended/.test(subject)));
    await expiry.endDue();
    expect(await subscriptionRow(subscription.id)).to.include({ status: 'active' });

    // The link works: the buyer pays on Stripe's page and the same subscription is extended.
    const link = /https?:\/\/\S+\/api\/subscribe\/autorenew\/pay\?token=[\w%.-]+/.exec(mail.text)![0];
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
    const started = await api(shop.app).post('/api/subscribe/autorenew/pay').type('form').send({ token }).expect(303);
    const session = [...stripe.sessions.values()].find((candidate) => started.headers.location === candidate.url)!;
    stripe.pay(session.id);
    const signed = { timestamp: Math.floor(harness().clock.now().getTime() / 1000) };
    expect((await stripe.deliver(`${shop.base}/api/webhook/stripe`, stripe.webhook(session.id, 'checkout.session.completed', signed))).status).to.equal(200);
    await waitFor(async () => (await subscriptionRow(subscription.id)).ends_at.getTime() > end, { what: 'the subscription extended' });
    await renewal.renewDue();
    expect((await chargeOf(subscription.id)).status).to.equal('succeeded');
  });
  it('an exception of the shop between the charge and its record: one shop error, not sent again every pass, the card charged once', async () => {
    const { buyer, subscription, customer } = await dueRenewal();
    const end = subscription.ends_at.getTime();
    const intents = () => stripe.chargeRequests.filter((entry) => entry.params.customer === customer);
    // A real failure of ours after Stripe charged: the database refuses to record the charge's answer.
    await knex().raw(
      "create or replace function test_renewal_record_fails() returns trigger language plpgsql as $$ begin raise exception 'test: recording the renewal charge fails'; end $$",
    );
    await knex().raw(
      "create trigger test_renewal_record_fails before insert on payment_events for each row when (new.payload::text like '%off-session-charge%') execute function test_renewal_record_fails()",
    );
    try {
      moveClockTo(end + 60_000);
      expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['provider_error']);
      const charge = await chargeOf(subscription.id);
      expect(charge).to.include({ status: 'retrying', attempts: 1, failures: 0, decline_code: 'shop_error' });
      expect(charge.next_attempt_at.getTime()).to.equal(end + DAY);
      const alert = await harness().mailTo(STAFF, (mail) => mail.subject.includes(`subscription #${subscription.id}`));
      expect(alert.text).to.contain('recording the renewal charge fails').and.contain('shop_error');
      // The next passes do not send it again (before: the row stayed `charging` and every pass re-sent it and failed).
      expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal([]);
      moveClockTo(end + 2 * 3600_000);
      expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal([]);
      expect(intents()).to.have.length(1);
      expect(await staffAlerts(charge.id)).to.have.length(1);
    } finally {
      await knex().raw('drop trigger if exists test_renewal_record_fails on payment_events');
      await knex().raw('drop function if exists test_renewal_record_fails()');
    }
    // The next attempt asks Stripe about the charge it made first: the order is paid by it, no second charge.
    moveClockTo(end + DAY + 60_000);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['waiting_provider']);
    await waitFor(async () => (await subscriptionRow(subscription.id)).ends_at.getTime() > end, { what: 'the subscription extended' });
    moveClockTo(end + DAY + 20 * 60_000);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['skipped']);
    expect((await chargeOf(subscription.id)).status).to.equal('succeeded');
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(1);
    expect(intents()).to.have.length(1);
    expect(await buyerMails(buyer.id)).not.to.satisfy((subjects: string[]) => subjects.some((subject) => /could not renew|declined|has ended/.test(subject)));
  });
});
