/**
 * Issue 34, item 4: returning from Stripe's card page turns automatic renewal on only for the
 * Checkout Session Stripe returned, when it is the save-a-card page this buyer opened for this
 * subscription, finished with a card, and not used before. Stripe sends the buyer back to
 * `/user/{id}?cardSaved={subscription}&cardSession={CHECKOUT_SESSION_ID}`; the panel hands both
 * to POST /api/subscribe/autorenew/card-saved. (The old return, a bare `?cardSaved=`, made the
 * panel switch renewal on with no click: the browser test panel-renewal.test.ts checks that it
 * no longer does.)
 */
import { expect } from 'chai';
import { api, logIn } from '../support/agent.js';
import { buyByCard, useRenewalShop } from '../support/auto-renewal.js';
import { harness, useWorker } from '../support/harness.js';

useWorker();

const PANEL = '/api/user/getuserpanel';

describe("automatic renewal: the return from Stripe's card page", function () {
  this.timeout(60_000);
  const shop = useRenewalShop();

  it("turns renewal on only with this buyer's own, finished, unused page for this subscription; anything else changes nothing", async () => {
    const { app, stripe } = shop;
    const first = await buyByCard(shop, { renewAutomatically: false });
    const other = await buyByCard(shop, { renewAutomatically: false });
    const buyer = await logIn(first.buyer, app);
    const stranger = await logIn(other.buyer, app);
    const subscriptionId = first.subscription.id;

    const openPage = async (who: typeof buyer, id: number) => {
      const { body } = await api(app).post('/api/subscribe/autorenew/card').set(who.auth).send({ subscriptionId: id }).expect(200);
      return [...stripe.sessions.values()].find((session) => session.url === body.url)!;
    };
    const returned = (who: typeof buyer, body: object) => api(app).post('/api/subscribe/autorenew/card-saved').set(who.auth).send(body);
    const state = async () => {
      const panel = await api(app).get(PANEL).query({ id: buyer.id, languageId: 1 }).set(buyer.auth).expect(200);
      return panel.body.subscribers.find((entry: { subscribeId: number }) => entry.subscribeId === subscriptionId).autoRenew;
    };
    const refused = async (who: typeof buyer, body: object, status: number, code: string) => {
      const res = await returned(who, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.code).to.equal(code);
    };

    const page = await openPage(buyer, subscriptionId);
    const strangersPage = await openPage(stranger, other.subscription.id);
    // Stripe names the session in the return address.
    expect(page.success_url).to.match(new RegExp(`/user/${buyer.id}\\?cardSaved=${subscriptionId}&cardSession=\\{CHECKOUT_SESSION_ID\\}$`));

    // Strict input: a session id is Stripe's `cs_…`.
    await returned(buyer, { subscriptionId }).expect(400);
    await returned(buyer, { subscriptionId, sessionId: 'x' }).expect(400);
    await api(app).post('/api/subscribe/autorenew/card-saved').send({ subscriptionId, sessionId: page.id }).expect(401);
    // Not finished yet.
    await refused(buyer, { subscriptionId, sessionId: page.id }, 409, 'card_session_invalid');

    stripe.pay(page.id, { card: { last4: '4242' } });
    stripe.pay(strangersPage.id, { card: { last4: '1881' } });
    // Another buyer's session, a session of another subscription, a made-up one: nothing changes.
    await refused(buyer, { subscriptionId, sessionId: strangersPage.id }, 409, 'card_session_invalid');
    await refused(buyer, { subscriptionId, sessionId: 'cs_test_madeup' }, 409, 'card_session_invalid');
    await refused(stranger, { subscriptionId, sessionId: page.id }, 404, 'subscription_not_found');
    await refused(buyer, { subscriptionId: other.subscription.id, sessionId: page.id }, 404, 'subscription_not_found');
    expect(await state()).to.include({ enabled: false, canEnable: false });

    // Its own finished page: on, with the card saved there, audited as the buyer's card-saved return.
    const { body: on } = await returned(buyer, { subscriptionId, sessionId: page.id }).expect(200);
    expect(on).to.include({ mode: 'card', enabled: true, canEnable: true, cardLast4: '4242' });
    const audit = await harness()
      .knex('audit_log')
      .where({ action: 'subscription.autorenew', target_id: String(subscriptionId) });
    expect(audit).to.have.length(1);
    expect(audit[0]).to.include({ actor_user_id: buyer.id });
    expect(audit[0].details).to.include({ enabled: true, via: 'card_saved' });

    // The buyer turns it off; the same return, replayed, does not turn it on again.
    await api(app).post('/api/subscribe/autorenew').set(buyer.auth).send({ subscriptionId, enabled: false }).expect(200);
    await refused(buyer, { subscriptionId, sessionId: page.id }, 409, 'card_session_invalid');
    expect(await state()).to.include({ enabled: false, canEnable: true, cardLast4: '4242' });
    // The stranger's own page still works for the stranger.
    const { body: theirs } = await returned(stranger, { subscriptionId: other.subscription.id, sessionId: strangersPage.id }).expect(200);
    expect(theirs).to.include({ enabled: true, cardLast4: '1881' });
  });
});
