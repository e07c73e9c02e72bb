import { expect } from 'chai';
import type { Express } from 'express';
import type { CatalogService, ExpiryFlow, RenewalFlow } from '@subshare/core';
import { api, logIn, loginAs, type TestUser } from '../support/agent.js';
import { buyByCard, moveClockTo, remindersDelivered, useRenewalShop, type CardPurchaseOptions } from '../support/auto-renewal.js';
import { harness, useWorker } from '../support/harness.js';
import { refreshCatalog, type TestPlatform } from '../support/shop.js';

useWorker();

const DAY = 24 * 3600_000;

/**
 * Staff's view of automatic renewal (issue 28, item 5) through the real HTTP API, on a database of
 * this file's own so the figures are exact: the dashboard's expected renewal revenue of the next 30
 * days per currency (renewal on, a card saved, at the price it would be charged) and the failed
 * renewals; per subscription, in the admin's view of a user, the renewal state and the next charge.
 */
describe('automatic renewal: staff dashboard and per-subscription state', function () {
  this.timeout(90_000);
  const shop = useRenewalShop();
  const { stripe } = shop;
  const knex = () => harness().knex;
  let app: Express;
  let renewal: RenewalFlow;
  let expiry: ExpiryFlow;
  let catalog: CatalogService;
  let platform: TestPlatform;
  before(() => ({ app, renewal, expiry, catalog, platform } = shop));
  const buy = (options: CardPurchaseOptions = {}) => buyByCard(shop, options);

  it('sums the next 30 days per currency at the current price, counts and lists the failed renewals, and shows each subscription its renewal; buyers get 403', async () => {
    // A renewal that fails: the card declines at the end date, and it waits for its retry.
    const declined = await buy({ last4: '0341' });
    await renewal.renewDue();
    stripe.cardBehaves(declined.card.id, 'decline');
    moveClockTo(new Date(declined.subscription.ends_at.getTime() - 2 * DAY - 3600_000)); // more than 48 hours ahead (RENEWAL_NOTICE_HOURS)
    expect((await expiry.remindDue()).subscriptionIds).to.include(declined.subscription.id);
    await harness().mailTo(declined.buyer.email, (mail) => /renews on/.test(mail.subject));
    await remindersDelivered();
    moveClockTo(new Date(declined.subscription.ends_at.getTime() + 60_000));
    await renewal.renewDue();

    // Counted: renewal on with a saved card (EUR and KRW). Not counted: switched off, paid by card
    // without the opt-in, and an opt-in whose card the renewal pass has not learnt yet.
    const euro = await buy({ last4: '4242' });
    const won = await buy({ last4: '1111', currency: 'KRW' });
    const switchedOff = await buy({ last4: '5555' });
    const notOptedIn = await buy({ renewAutomatically: false });
    await renewal.renewDue();
    await api(app)
      .post('/api/subscribe/autorenew')
      .set(switchedOff.buyer.auth)
      .send({ subscriptionId: switchedOff.subscription.id, enabled: false })
      .expect(200);
    const unlearnt = await buy({ last4: '7777' });

    // The EUR price goes up: the expected revenue is what would be charged now.
    await knex()('platform_prices').where({ platform_id: platform.id, currency: 'EUR' }).update({ sale_price_minor: 549 });
    refreshCatalog();
    catalog.invalidate();

    // Ten days before they end: every new subscription ends within 30 days.
    moveClockTo(new Date(euro.subscription.ends_at.getTime() - 10 * DAY));
    const admin = await loginAs('admin', { app });
    const buyer = await logIn(euro.buyer, app);
    await api(app).get('/api/admin/dashboard').set(buyer.auth).expect(403);
    const { body } = await api(app).get('/api/admin/dashboard').set(admin.auth).expect(200);

    expect(body.renewals).to.have.all.keys('expected', 'failedCount', 'latestFailed', 'remindersUndelivered');
    // SMTP configured: reminders are delivered, nothing to warn about.
    expect(body.renewals.remindersUndelivered).to.equal(false);
    expect(body.renewals.expected).to.have.deep.members([
      { amount: 5.49, currencyCode: 'EUR' },
      { amount: 6900, currencyCode: 'KRW' },
    ]);
    expect(body.renewals.failedCount).to.equal(1);
    expect(body.renewals.latestFailed).to.have.length(1);
    expect(body.renewals.latestFailed[0]).to.deep.include({
      subscriptionId: declined.subscription.id,
      userId: declined.buyer.id,
      status: 'retrying',
      attempts: 1,
      amount: 4.99,
      currencyCode: 'EUR',
      cardLast4: '0341',
      declineCode: 'insufficient_funds',
    });
    expect(body.renewals.latestFailed[0].nextChargeAt).to.equal(new Date(declined.subscription.ends_at.getTime() + DAY).toISOString());
    // The staff list agrees with the dashboard's figure.
    const { body: list } = await api(app).get('/api/admin/renewals').set(admin.auth).expect(200);
    expect(list.expected).to.have.deep.members(body.renewals.expected);

    // Per subscription, in the admin's view of each user: the renewal state and the next charge.
    const stateOf = async (of: { buyer: TestUser; subscription: { id: number } }) => {
      const panel = await api(app).get('/api/user/getuserpanel').query({ id: of.buyer.id, languageId: 1 }).set(admin.auth).expect(200);
      return panel.body.subscribers.find((item: { subscribeId: number }) => item.subscribeId === of.subscription.id).autoRenew;
    };
    expect(await stateOf(euro)).to.deep.equal({
      mode: 'card',
      enabled: true,
      canEnable: true,
      status: null,
      nextChargeAt: euro.subscription.ends_at.toISOString(),
      amount: 5.49,
      currencyCode: 'EUR',
      cardLast4: '4242',
    });
    expect(await stateOf(won)).to.include({ enabled: true, amount: 6900, currencyCode: 'KRW', cardLast4: '1111' });
    expect(await stateOf(switchedOff)).to.deep.equal({
      mode: 'card',
      enabled: false,
      canEnable: true,
      status: null,
      nextChargeAt: null,
      amount: 5.49,
      currencyCode: 'EUR',
      cardLast4: '5555',
    });
    expect(await stateOf(notOptedIn)).to.include({ mode: 'card', enabled: false, canEnable: false, cardLast4: null });
    // Its card not learnt yet: still switchable (issue 34), and not counted in the expected revenue.
    expect(await stateOf(unlearnt)).to.include({ mode: 'card', enabled: true, canEnable: true, cardLast4: null });
  });
});
