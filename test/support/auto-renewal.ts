/**
 * Automatic renewal's test setup (issue 28), shared by the API and browser tests: the shop on the
 * local Stripe server (`useRenewalShop`), and a buyer who pays a card order there, with or without
 * "Renew automatically", the order activating as every paid order does (the signed
 * `checkout.session.completed` webhook).
 */
import { expect } from 'chai';
import type { Express } from 'express';
import { CatalogService, ExpiryFlow, RenewalFlow } from '@subshare/core';
import { listen } from '@subshare/http';
import { api, loginAs, type TestUser } from './agent.js';
import { FakeStripe } from './fake-stripe.js';
import { harness } from './harness.js';
import { onFreePort } from './ports.js';
import { createAccount, createPlatform, type TestPlatform } from './shop.js';
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

/** The renewal shop with the flows its tests drive (the passes the worker's jobs run) and its catalog. */
export interface RenewalWorld extends RenewalShop {
  renewal: RenewalFlow;
  expiry: ExpiryFlow;
  catalog: CatalogService;
}

/**
 * The shop a renewal test file pays in, started before its tests and stopped after them: the
 * local Stripe server, an app on it listening on a port of its own (Stripe sends webhooks and the
 * buyer back there: PUBLIC_URL is that address), and a platform with two accounts of four slots,
 * so the file's subscriptions can renew while some keep their slots held. The object is filled in
 * by the time the tests run. `env` adds to the app's configuration (e.g. STAFF_ALERT_EMAILS).
 */
export function useRenewalShop(env: Record<string, string> = {}): RenewalWorld {
  const world = { stripe: new FakeStripe() } as RenewalWorld;
  const stops: Array<() => Promise<void>> = [];
  before(async function () {
    this.timeout(60_000);
    stops.push((await world.stripe.start()).stop);
    const { app, container, server } = await onFreePort(async (port) => {
      const shop = harness().appWith({ ...world.stripe.env, PUBLIC_URL: `http://127.0.0.1:${port}`, ...env });
      return { ...shop, server: await listen(shop.app, port, '127.0.0.1') };
    });
    stops.push(server.close);
    world.app = app;
    world.base = server.url;
    world.renewal = container.get(RenewalFlow);
    world.expiry = container.get(ExpiryFlow);
    world.catalog = container.get(CatalogService);
    world.platform = await createPlatform({ slotsCount: 4 });
    world.catalog.invalidate();
    await createAccount(world.platform.id, 4);
    await createAccount(world.platform.id, 4);
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
  });
  return world;
}

/** Moves the file's test clock forward to `at` (never back). */
export function moveClockTo(at: Date | number): void {
  const by = new Date(at).getTime() - harness().clock.now().getTime();
  if (by > 0) harness().clock.advance(by);
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
 * Waits until every renewal reminder written so far is recorded as delivered. The test's SMTP
 * server has the mail as soon as the worker hands it over, a moment before the worker marks it
 * sent; a renewal pass in between charges nothing yet (no charge before its reminder was
 * delivered) and tries again later.
 */
export async function remindersDelivered(): Promise<void> {
  const knex = harness().knex;
  const reminders = knex('renewal_charges').select('reminder_key');
  await waitFor(
    async () => {
      const [{ n }] = await knex('email_outbox').whereIn('idempotency_key', reminders).whereNot({ status: 'sent' }).count<Array<{ n: string }>>('* as n');
      return Number(n) === 0;
    },
    { what: 'the renewal reminders recorded as delivered' },
  );
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
