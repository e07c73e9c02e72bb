/**
 * Issue 34, item 4: the buyer is told in time. A renewal charge is made only RENEWAL_NOTICE_HOURS
 * (48) after its reminder was sent; a reminder that went out late (the reminder pass ran an hour
 * before the end date) moves the charge to 48 hours after it, the slot held meanwhile, and access
 * then follows the paid period. The old code charged at the end date, an hour after the reminder.
 */
import { expect } from 'chai';
import type { ExpiryFlow, RenewalFlow } from '@subshare/core';
import { buyByCard, moveClockTo, remindersDelivered, useRenewalShop } from '../support/auto-renewal.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

useWorker();

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const NOTICE = 48 * HOUR;
/** The slot is held through the last retry (3 days after the first try) and one hour more. */
const HOLD = 3 * DAY + HOUR;

describe('automatic renewal: the reminder comes at least 48 hours before the charge', function () {
  this.timeout(60_000);
  const shop = useRenewalShop();
  const knex = () => harness().knex;
  let renewal: RenewalFlow;
  let expiry: ExpiryFlow;
  before(() => ({ renewal, expiry } = shop));

  const outcomeOf = (run: Awaited<ReturnType<RenewalFlow['renewDue']>>, subscriptionId: number) =>
    run.charges.filter((charge) => charge.subscriptionId === subscriptionId).map((charge) => charge.outcome);

  it('a reminder sent an hour before the end: no charge at the end date; charged 48 hours after the reminder, the slot held until then', async () => {
    const { subscription, customer } = await buyByCard(shop);
    expect((await renewal.renewDue()).cardsLearnt).to.be.at.least(1);

    // The reminder pass runs late: an hour before the end.
    moveClockTo(subscription.ends_at.getTime() - HOUR);
    expect((await expiry.remindDue()).subscriptionIds).to.include(subscription.id);
    await remindersDelivered();
    const charge = await knex()('renewal_charges').where({ subscription_id: subscription.id }).first();
    const reminder = await knex()('email_outbox').where({ idempotency_key: charge.reminder_key }).first();
    expect(reminder.status).to.equal('sent');
    const chargeAt = reminder.sent_at.getTime() + NOTICE;
    expect(chargeAt).to.be.greaterThan(subscription.ends_at.getTime());

    // The end date: not charged (the old code charged here), moved to 48 hours after the reminder.
    moveClockTo(subscription.ends_at.getTime() + 60_000);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['waiting_notice']);
    const moved = await knex()('renewal_charges').where({ id: charge.id }).first();
    expect(moved).to.include({ status: 'scheduled', attempts: 0 });
    expect(moved.next_attempt_at.getTime()).to.equal(chargeAt);
    expect(shop.stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(0);
    // The slot is held through the moved charge and its retries; access itself ended at the end date.
    const held = await knex()('subscriptions').where({ id: subscription.id }).first();
    expect(held.status).to.equal('active');
    expect(held.held_until.getTime()).to.equal(chargeAt + HOLD);
    await expiry.endDue();
    expect((await knex()('subscriptions').where({ id: subscription.id }).first()).status).to.equal('active');

    // A minute before: still nothing.
    moveClockTo(chargeAt - 60_000);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal([]);
    expect(shop.stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(0);

    // 48 hours after the reminder: charged once; the paid period runs from the payment.
    moveClockTo(chargeAt + 60_000);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['succeeded']);
    expect(shop.stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(1);
    const paidAt = harness().clock.now().getTime();
    await waitFor(
      async () => {
        const row = await knex()('subscriptions').where({ id: subscription.id }).first();
        return row.ends_at.getTime() > paidAt + 27 * DAY ? row : undefined;
      },
      { what: 'the subscription extended from the payment' },
    );
    const renewed = await knex()('subscriptions').where({ id: subscription.id }).first();
    expect(renewed).to.include({ status: 'active', slot: subscription.slot, platform_account_id: subscription.platform_account_id });
    expect(renewed.held_until).to.equal(null);
  });

  it('a reminder sent in time (3 days ahead): charged at the end date, as before', async () => {
    const { subscription } = await buyByCard(shop);
    await renewal.renewDue();
    moveClockTo(subscription.ends_at.getTime() - 2 * DAY - HOUR);
    expect((await expiry.remindDue()).subscriptionIds).to.include(subscription.id);
    await remindersDelivered();
    moveClockTo(subscription.ends_at.getTime() + 60_000);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['succeeded']);
  });
});
