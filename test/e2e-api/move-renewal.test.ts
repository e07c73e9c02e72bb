import { expect } from 'chai';
import { AccountHealthFlow } from '@subshare/core';
import { api, logIn, loginAs } from '../support/agent.js';
import { buyByCard, moveClockTo, remindersDelivered, renewalsApplied, useRenewalShop } from '../support/auto-renewal.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

useWorker();

const DAY = 24 * 3600_000;

/**
 * Issue 33, what a moved buyer sees (item 7): the shop moves a buyer off a broken account after
 * this period's renewal reminder. The buyer keeps the identity they know (the same order, the
 * subscription ID and start they were given, in the panel and in the e-mail), and the reminder and
 * the charge go with them: at the end date exactly one charge, on the new subscription, and no
 * second reminder. Driven with the test clock and the local Stripe server, as automatic renewal is.
 */
describe('a move after the renewal reminder', function () {
  this.timeout(60_000);
  const shop = useRenewalShop();
  const knex = () => harness().knex;

  it('keeps the order, ID and start the buyer knows, and carries the reminder and the charge to the new subscription', async () => {
    const { app, renewal, expiry, stripe } = shop;
    const { buyer, orderId, subscription, customer } = await buyByCard(shop, { last4: '4242' });
    await renewal.renewDue(); // learns the card the payment saved

    // The reminder, 2 days before the end: a charge is scheduled for this period.
    moveClockTo(new Date(subscription.ends_at.getTime() - 2 * DAY - 3600_000)); // more than 48 hours ahead (RENEWAL_NOTICE_HOURS)
    expect((await expiry.remindDue()).subscriptionIds).to.include(subscription.id);
    const reminder = await harness().mailTo(buyer.email, (mail) => /renews on/.test(mail.subject));
    const cancelLink = /https?:\/\/\S+\/api\/subscribe\/autorenew\/cancel\?token=[\w%.-]+/.exec(reminder.text)![0];
    await remindersDelivered();

    // Then its account breaks (staff say so) and the shop moves the buyer.
    const admin = await loginAs('admin', { app });
    await api(app)
      .post('/api/subscribe/setaccounthealth')
      .set(admin.auth)
      .send({ accountId: subscription.platform_account_id, state: 'broken', reason: 'the owner changed the password' })
      .expect(200);
    await harness().container.get(AccountHealthFlow).moveBuyers(subscription.platform_account_id);
    const moved = await waitFor(() => knex()('subscriptions').where({ replaced_from_id: subscription.id, status: 'active' }).first(), {
      what: 'the buyer moved',
    });
    expect(moved.platform_account_id).to.not.equal(subscription.platform_account_id);
    expect(moved.ends_at.getTime()).to.equal(subscription.ends_at.getTime());
    expect(moved.held_until).to.not.equal(null);

    // The panel: the same order, the ID and start the buyer knows; the end and the renewal unchanged.
    const auth = (await logIn(buyer, app)).auth;
    const panel = await api(app).get('/api/user/getuserpanel').query({ id: buyer.id, languageId: 1 }).set(auth).expect(200);
    expect(panel.body.subscribers).to.have.length(1);
    const [item] = panel.body.subscribers;
    expect(item).to.include({
      orderId,
      subscribeId: moved.id,
      knownSubscribeId: subscription.id,
      startTime: subscription.starts_at.toISOString(),
      endTime: subscription.ends_at.toISOString(),
      health: 'moved',
    });
    expect(item.autoRenew).to.include({ enabled: true, cardLast4: '4242' });
    expect(new Date(item.autoRenew.nextChargeAt).getTime()).to.equal(subscription.ends_at.getTime());
    // The e-mail names the subscription the buyer knows, not the new row.
    const movedMail = await harness().mailTo(buyer.email, (mail) => /moved to another account/.test(mail.subject));
    expect(movedMail.text).to.contain(`#${subscription.id}`).and.not.contain(`#${moved.id}`);

    // The reminder's cancel link follows the buyer: its page still offers to cancel, naming the ID they know.
    const cancelPage = await api(app)
      .get(cancelLink.slice(cancelLink.indexOf('/api/')))
      .expect(200);
    expect(cancelPage.text).to.contain('Cancel automatic renewal?').and.contain(`subscription (#${subscription.id}) will not renew`);

    // The reminder went with it: the reminder pass says nothing more.
    expect((await expiry.remindDue()).subscriptionIds).to.not.include(moved.id);
    expect(await knex()('renewal_charges').where({ subscription_id: subscription.id })).to.have.length(0);
    expect((await knex()('renewal_charges').where({ subscription_id: moved.id })).map((charge) => charge.status)).to.deep.equal(['scheduled']);

    // At the end date: one charge, on the new subscription; the replaced one is never charged.
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    const run = await renewal.renewDue();
    expect(run.charges.filter((charge) => charge.subscriptionId === moved.id).map((charge) => charge.outcome)).to.deep.equal(['succeeded']);
    expect(run.charges.filter((charge) => charge.subscriptionId === subscription.id)).to.deep.equal([]);
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(1);
    await renewalsApplied();
    const renewed = await knex()('subscriptions').where({ id: moved.id }).first();
    expect(renewed.ends_at.getTime()).to.be.greaterThan(subscription.ends_at.getTime() + 27 * DAY);
    expect((await knex()('subscriptions').where({ id: subscription.id }).first()).status).to.equal('replaced');

    // One reminder in all; another pass charges nothing more.
    const reminders = await knex()('email_outbox').where({ user_id: buyer.id }).whereLike('idempotency_key', '%autorenew-reminder%');
    expect(reminders).to.have.length(1);
    await renewal.renewDue();
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(1);
    const [audit] = await knex()('audit_log')
      .where({ action: 'subscription.replace', target_id: String(subscription.id) })
      .select('details');
    expect(audit.details).to.deep.include({ reason: 'account broken', renewalChargesMoved: 1 });
  });
});
