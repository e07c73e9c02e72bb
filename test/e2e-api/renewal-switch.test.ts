/**
 * Issue 34, item 6: the panel's renewal switch. An opt-in whose card the renewal pass has not
 * learnt yet can be switched off and on again without a card page (the old code answered 409
 * `no_saved_card`, and the panel then sent the buyer to Stripe's card page); a subscription paid
 * with a method Stripe cannot charge (`mode: link`) answers `autorenew_unavailable`, not
 * `no_saved_card`.
 */
import { expect } from 'chai';
import { api, loginAs } from '../support/agent.js';
import { buyByCard, subscriptionOf, useRenewalShop } from '../support/auto-renewal.js';
import { harness, useWorker } from '../support/harness.js';
import { activation, createOrder, markPaidQuietly } from '../support/shop.js';

useWorker();

const PANEL = '/api/user/getuserpanel';

describe('automatic renewal: the switch', function () {
  this.timeout(60_000);
  const shop = useRenewalShop();

  it('switches an opt-in off and on before its card is learnt, with no card page; the pass then learns the card', async () => {
    const { app, stripe, renewal } = shop;
    const { buyer, subscription } = await buyByCard(shop, { last4: '5100' });
    const state = async () => {
      const panel = await api(app).get(PANEL).query({ id: buyer.id, languageId: 1 }).set(buyer.auth).expect(200);
      return panel.body.subscribers.find((entry: { subscribeId: number }) => entry.subscribeId === subscription.id).autoRenew;
    };
    const toggle = (enabled: boolean) => api(app).post('/api/subscribe/autorenew').set(buyer.auth).send({ subscriptionId: subscription.id, enabled });
    // Not learnt yet: on, no card known, and the switch can turn it on (the panel asks no card page).
    expect(await state()).to.include({ mode: 'card', enabled: true, canEnable: true, cardLast4: null });
    const pages = [...stripe.sessions.values()].filter((session) => session.mode === 'setup').length;

    expect((await toggle(false).expect(200)).body).to.include({ enabled: false, canEnable: true });
    const on = await toggle(true);
    expect(on.status, JSON.stringify(on.body)).to.equal(200);
    expect(on.body).to.include({ mode: 'card', enabled: true, canEnable: true });
    expect([...stripe.sessions.values()].filter((session) => session.mode === 'setup')).to.have.length(pages);

    expect((await renewal.renewDue()).cardsLearnt).to.be.at.least(1);
    expect(await state()).to.include({ enabled: true, canEnable: true, cardLast4: '5100' });
  });

  it('answers autorenew_unavailable for a subscription paid with a method Stripe cannot charge', async () => {
    const { app } = shop;
    const payer = await loginAs('user', { app });
    const orderId = await createOrder(
      { id: payer.id, email: payer.email, name: null, photoUrl: null, role: 0, isEmailVerified: true, languageId: 1, sessionId: 'switch-link' },
      shop.platform,
    );
    await markPaidQuietly(orderId);
    await activation().activate(orderId);
    const subscription = await subscriptionOf(orderId);
    const panel = await api(app).get(PANEL).query({ id: payer.id, languageId: 1 }).set(payer.auth).expect(200);
    expect(panel.body.subscribers.find((entry: { subscribeId: number }) => entry.subscribeId === subscription.id).autoRenew).to.include({ mode: 'link' });
    const refused = await api(app).post('/api/subscribe/autorenew').set(payer.auth).send({ subscriptionId: subscription.id, enabled: true });
    expect(refused.status).to.equal(409);
    expect(refused.body.code).to.equal('autorenew_unavailable');
    expect(
      await harness()
        .knex('audit_log')
        .where({ action: 'subscription.autorenew', target_id: String(subscription.id) }),
    ).to.have.length(0);
  });
});
