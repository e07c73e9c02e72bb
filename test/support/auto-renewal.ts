/**
 * Automatic renewal's test setup (issue 28), shared by the API and browser tests: a buyer pays a
 * card order through the local Stripe server, with or without "Renew automatically", and the order
 * activates as every paid order does (the signed `checkout.session.completed` webhook).
 */
import { expect } from 'chai';
import type { Express } from 'express';
import { api, loginAs, type TestUser } from './agent.js';
import type { FakeStripe } from './fake-stripe.js';
import { harness } from './harness.js';
import type { TestPlatform } from './shop.js';
import { waitFor } from './wait.js';

/** The shop the buyer pays in: its app, its listening address (for webhooks), the Stripe server, the platform bought. */
export interface RenewalShop {
  app: Express;
  base: string;
  stripe: FakeStripe;
  platform: TestPlatform;
}

export interface CardPurchaseOptions {
  last4?: string;
  languageId?: 1 | 2;
  currency?: 'EUR' | 'KRW';
  /** Ticks "Renew automatically" (default true). */
  renewAutomatically?: boolean;
  /** This buyer pays (a new one otherwise). */
  buyer?: TestUser;
}

/** The subscription an order's first item made. */
export const subscriptionOf = (orderId: number) =>
  harness()
    .knex('subscriptions')
    .whereIn('order_item_id', harness().knex('order_items').select('id').where({ order_id: orderId }))
    .orderBy('id')
    .first();

/** A buyer pays by card (with "Renew automatically" unless told otherwise); answers the order, its subscription and the card used. */
export async function buyByCard(shop: RenewalShop, options: CardPurchaseOptions = {}) {
  const { app, stripe, platform } = shop;
  const knex = harness().knex;
  const buyer = options.buyer ?? (await loginAs('user', { app }));
  if (options.languageId === 2) await knex('users').where({ id: buyer.id }).update({ language_id: 2 });
  const { body: order } = await api(app)
    .post('/api/order/insert')
    .set(buyer.auth)
    .send({
      platformId: platform.id,
      typeId: platform.typeId,
      durationId: platform.durationId,
      languageId: options.languageId ?? 1,
      currency: options.currency ?? 'EUR',
    })
    .expect(200);
  const renewAutomatically = options.renewAutomatically ?? true;
  await api(app)
    .post('/api/payment/createcheckoutsession')
    .set(buyer.auth)
    .send(renewAutomatically ? { orderId: order.id, renewAutomatically } : { orderId: order.id })
    .expect(200);
  const create = stripe.lastCreate!;
  const sessionId = [...stripe.sessions.values()].find((session) => session.metadata.orderId === String(order.id))!.id;
  const session = stripe.pay(sessionId, { card: { last4: options.last4 ?? '4444' } });
  const signed = { timestamp: Math.floor(harness().clock.now().getTime() / 1000) };
  expect((await stripe.deliver(`${shop.base}/api/webhook/stripe`, stripe.webhook(sessionId, 'checkout.session.completed', signed))).status).to.equal(200);
  await waitFor(async () => (await knex('orders').where({ id: order.id }).first()).state === 2, { what: 'the order activated' });
  const subscription = await subscriptionOf(order.id);
  const card = session.customer ? stripe.cardsOf(session.customer)[0] : undefined;
  return { buyer, orderId: order.id as number, subscription, card: card!, create, customer: session.customer! };
}

/**
 * Waits until every paid renewal has extended its subscription. A successful charge pays the
 * renewal order at once, but the extension is the activation job's, in the worker, after
 * `renewDue` has returned; figures read before it still see the old end date.
 */
export async function renewalsApplied(): Promise<void> {
  const knex = harness().knex;
  const renewalOrders = knex('order_items').select('order_id').whereNotNull('renews_subscription_id');
  await waitFor(
    async () => {
      const [{ n }] = await knex('orders').where({ state: 6 }).whereIn('id', renewalOrders).count<Array<{ n: string }>>('* as n');
      return Number(n) === 0;
    },
    { what: 'each paid renewal to extend its subscription' },
  );
}
