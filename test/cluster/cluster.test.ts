import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { EMAIL_KIND, freePort, IDENTITY, type AuthService } from '@subshare/core';
import { exited, spawnCli } from '../support/cli.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness, testEnv } from '../support/harness.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.js';
import { createAccount, createPlatform, orderInput, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 16: the shop as a cluster. Two `subshare serve` and two `subshare worker` processes of
 * the built CLI on one PostgreSQL (this file's database on the run's server), a round-robin
 * proxy in front of the two `serve`, a Stripe of the test's own speaking Stripe's protocol, and
 * the SMTP server of the harness. What the README promises of scaling out, tried for real:
 * - a burst of 1,000 buyers for 10 free slots: exactly 10 active, 990 waiting, no 5xx, no slot
 *   held twice, and every buyer's signed notification delivered to BOTH `serve` at once is
 *   applied once (one event row, one e-mail);
 * - workers killed with SIGKILL in the middle of activations, again and again: every paid order
 *   ends active or waiting, none activated twice, and the capacity is used;
 * - a catalog change made through one `serve` is served by the other within a second.
 */
describe('a cluster: two serve and two worker processes on one PostgreSQL, behind a round-robin proxy', function () {
  this.timeout(600_000);

  const nowSeconds = () => Math.floor(Date.now() / 1000);
  let stripe: FakeStripe;
  let env: Record<string, string>;
  let serves: Array<{ child: ReturnType<typeof spawnCli>; url: string }> = [];
  let workers: Array<ReturnType<typeof spawnCli>> = [];
  let proxy: RoundRobinProxy;
  let auth: AuthService;
  let ipCounter = 0;

  async function startServe() {
    const port = await freePort();
    const child = spawnCli(['serve'], { ...env, PORT: String(port) });
    await waitFor(() => child.output().includes('HTTP server listening') || child.exitCode !== null, {
      timeoutMs: 60_000,
      intervalMs: 50,
      what: `serve on ${port}`,
    });
    expect(child.exitCode, child.output()).to.equal(null);
    return { child, url: `http://127.0.0.1:${port}` };
  }

  async function startWorker() {
    const child = spawnCli(['worker'], env);
    await waitFor(() => child.output().includes('worker started') || child.exitCode !== null, { timeoutMs: 60_000, intervalMs: 50, what: 'a worker' });
    expect(child.exitCode, child.output()).to.equal(null);
    return child;
  }

  const knex = () => harness().knex;

  /** `count` verified buyers, each with a login token (sessions made in the database: argon2 × 1,000 would only measure argon2). */
  async function buyers(count: number): Promise<Array<{ id: number; token: string; ip: string }>> {
    const rows = await knex()('users')
      .insert(
        Array.from({ length: count }, (_, index) => ({
          email: `cluster-${Date.now()}-${index}-${Math.random().toString(36).slice(2, 8)}@example.test`,
          password_hash: 'never used: these buyers hold tokens',
          role: 0,
          is_email_verified: true,
          language_id: 1,
          name: 'Cluster Buyer',
        })),
      )
      .returning('*');
    return Promise.all(
      rows.map(async (row) => {
        ipCounter += 1;
        const { token } = await auth.startSession(row, false);
        return { id: row.id as number, token, ip: `203.0.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}` };
      }),
    );
  }

  async function call(base: string, route: string, who: { token: string; ip: string }, body: unknown) {
    const response = await fetch(`${base}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}`, 'x-forwarded-for': who.ip },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** A buyer orders one month of the platform and starts a card checkout, both through the proxy; answers the Stripe session. */
  async function buy(platform: TestPlatform, who: { id: number; token: string; ip: string }): Promise<{ orderId: number; sessionId: string }> {
    const order = await call(proxy.url, '/api/order/insert', who, orderInput(platform));
    expect(order.status, JSON.stringify(order.body)).to.equal(200);
    const orderId = order.body.id as number;
    const checkout = await call(proxy.url, '/api/payment/createcheckoutsession', who, { orderId });
    expect(checkout.status, JSON.stringify(checkout.body)).to.equal(200);
    const payment = await knex()('payments').where({ order_id: orderId, provider: 'stripe' }).first('provider_reference');
    return { orderId, sessionId: payment.provider_reference as string };
  }

  /** Stripe takes the money and tells the shop: the same signed event, sent to the given `serve` processes at once. */
  async function pay(sessionId: string, to: string[]) {
    stripe.pay(sessionId);
    const delivery = stripe.webhook(sessionId, 'checkout.session.completed', { timestamp: nowSeconds() });
    const answers = await Promise.all(to.map((base) => stripe.deliver(`${base}/api/webhook/stripe`, delivery)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer)).to.equal(200);
  }

  async function unfinishedActivations(): Promise<number> {
    const { rows } = await knex().raw(`select count(*)::int as n from pgboss.job where name = 'order-activate' and state in ('created', 'retry', 'active')`);
    return rows[0].n;
  }

  async function runningActivations(): Promise<number> {
    const { rows } = await knex().raw(`select count(*)::int as n from pgboss.job where name in ('order-activate', 'account-created') and state = 'active'`);
    return rows[0].n;
  }

  async function ordersByState(orderIds: number[]): Promise<Record<number, number>> {
    const rows = await knex()('orders').whereIn('id', orderIds).select('state').count<Array<{ state: number; count: string }>>('* as count').groupBy('state');
    return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
  }

  /** Subscriptions of these orders: how many, how many orders hold more than one, how many slots are held twice. */
  async function subscriptionsOf(orderIds: number[]) {
    const { rows } = await knex().raw(
      `select
         count(*)::int as total,
         count(*) filter (where s.status = 'active')::int as active,
         (select count(*)::int from (select oi.order_id from subscriptions s2 join order_items oi on oi.id = s2.order_item_id
            where oi.order_id = any(:ids) group by oi.order_id having count(*) > 1) doubled) as doubled_orders,
         (select count(*)::int from (select s3.platform_account_id, s3.slot from subscriptions s3 join order_items oi on oi.id = s3.order_item_id
            where oi.order_id = any(:ids) and s3.status = 'active' group by 1, 2 having count(*) > 1) shared) as shared_slots
       from subscriptions s join order_items oi on oi.id = s.order_item_id where oi.order_id = any(:ids)`,
      { ids: orderIds },
    );
    return rows[0] as { total: number; active: number; doubled_orders: number; shared_slots: number };
  }

  before(async function () {
    stripe = new FakeStripe();
    await stripe.start();
    auth = harness().container.get<AuthService>(IDENTITY.Auth);
    // One configuration for every process, as behind a load balancer: the harness's secrets, so the
    // tokens and the stored account passwords made here are good in the cluster.
    env = testEnv(harness().db.url, {
      ...stripe.env,
      SMTP_URL: harness().smtp.url,
      TRUST_PROXY: 'loopback',
      TOKEN_SECRET: harness().config.tokenSecret.toString('utf8'),
      CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64'),
      LOG_LEVEL: 'info',
      // The burst asks what 1,000 buyers at once get: exactly-once slots and notifications, no
      // error. In npm test this file shares two cores with five browser files, and a request
      // starved of CPU can wait past the defaults (3 s without a free connection, 5 s a statement),
      // where the shop rightly sheds load with a fast 503 (one of 1,000 did, once, in CI). The
      // bounds that say "the database is gone" are not what this test is about: wide ones here.
      DATABASE_ACQUIRE_TIMEOUT_MS: '60000',
      DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    });
    serves = await Promise.all([startServe(), startServe()]);
    workers = await Promise.all([startWorker(), startWorker()]);
    proxy = await startRoundRobinProxy(serves.map((serve) => serve.url));
  });

  after(async function () {
    await proxy?.close();
    const children: ChildProcess[] = [...serves.map((serve) => serve.child), ...workers];
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    const codes = await Promise.all(children.map((child) => exited(child)));
    await stripe?.stop();
    expect(codes, 'every process stops cleanly on SIGTERM').to.deep.equal(codes.map(() => 0));
  });

  it('1,000 buyers at once for 10 free slots: exactly 10 active, 990 waiting, no 5xx, no slot held twice, each notification (sent to both serve at once) applied once', async () => {
    const platform = await createPlatform({ slotsCount: 5 });
    await createAccount(platform.id, 5);
    await createAccount(platform.id, 5);
    const people = await buyers(1_000);

    const bought = await Promise.all(
      people.map(async (who) => {
        const { orderId, sessionId } = await buy(platform, who);
        await pay(
          sessionId,
          serves.map((serve) => serve.url),
        );
        return orderId;
      }),
    );

    await waitFor(async () => (await unfinishedActivations()) === 0, { timeoutMs: 120_000, intervalMs: 250, what: 'every activation job done' });
    const states = await ordersByState(bought);
    expect(states, 'orders by state (2 active, 6 paid and waiting)').to.deep.equal({ 2: 10, 6: 990 });
    const subscriptions = await subscriptionsOf(bought);
    expect(subscriptions).to.deep.equal({ total: 10, active: 10, doubled_orders: 0, shared_slots: 0 });

    // Each notification reached both processes and was applied once: one event row and one paid payment per order.
    const { rows: events } = await knex().raw(
      `select count(*)::int as events, count(distinct order_id)::int as orders from payment_events where provider = 'stripe' and order_id = any(?)`,
      [bought],
    );
    expect(events[0]).to.deep.equal({ events: 1_000, orders: 1_000 });
    const paid = await knex()('payments').whereIn('order_id', bought).andWhere({ status: 'paid' }).count<Array<{ n: string }>>('* as n');
    expect(Number(paid[0]!.n)).to.equal(1_000);
    // One e-mail per buyer: "active" for the 10, "paid, waiting for a slot" for the 990.
    const { rows: mails } = await knex().raw(
      `select kind, count(*)::int as n, count(distinct user_id)::int as buyers from email_outbox where user_id = any(?) group by kind order by kind`,
      [people.map((who) => who.id)],
    );
    expect(mails).to.deep.equal([
      { kind: EMAIL_KIND.purchasedActiveSubscribe, n: 10, buyers: 10 },
      { kind: EMAIL_KIND.purchasedNotActiveSubscribe, n: 990, buyers: 990 },
    ]);

    expect(proxy.failures, 'requests the proxy could not relay').to.deep.equal([]);
    const errors = [...proxy.statuses].filter(([status]) => status >= 500);
    expect(errors, 'answers with a 5xx status through the proxy').to.deep.equal([]);
    expect(proxy.statuses.get(200)).to.equal(2_000);
    expect(proxy.perBackend, 'both serve processes served').to.deep.equal([1_000, 1_000]);
  });

  it('workers killed with SIGKILL in the middle of activations, 20 times and more: every paid order active or waiting, none activated twice, the capacity used', async () => {
    const platform = await createPlatform({ slotsCount: 4 });
    await createAccount(platform.id, 4);
    let capacity = 4;
    const paid: number[] = [];
    let kills = 0;
    for (let round = 0; kills < 20; round += 1) {
      expect(round, 'rounds needed to kill 20 times in the middle of activations').to.be.below(40);
      const bought = await Promise.all((await buyers(8)).map((who) => buy(platform, who)));
      // Capacity arrives now and then (account-created: the waiting orders are tried again).
      if (round % 2 === 1) {
        await createAccount(platform.id, 4);
        capacity += 4;
      }
      const paying = Promise.all(bought.map(({ sessionId }) => pay(sessionId, [proxy.url])));
      // Kill both workers the moment an activation runs in one of them.
      const deadline = Date.now() + 10_000;
      let running = 0;
      while (running === 0 && Date.now() < deadline) running = await runningActivations();
      for (const worker of workers) worker.kill('SIGKILL');
      if (running > 0) kills += 1;
      await Promise.all(workers.map((worker) => exited(worker)));
      await paying;
      paid.push(...bought.map(({ orderId }) => orderId));
      workers = await Promise.all([startWorker(), startWorker()]);
    }

    // A job that was running in a killed worker is taken up again (its heartbeat stopped); then
    // every slot is used, each by one order, and every other paid order waits.
    const settled = async () => {
      const states = await ordersByState(paid);
      const subscriptions = await subscriptionsOf(paid);
      return (await unfinishedActivations()) === 0 && subscriptions.active === Math.min(paid.length, capacity) ? { states, subscriptions } : undefined;
    };
    const { states, subscriptions } = await waitFor(settled, { timeoutMs: 180_000, intervalMs: 500, what: 'the cluster settled after the kills' });
    expect(Object.keys(states).sort(), 'paid orders are active (2) or waiting (6), never lost').to.deep.equal(paid.length > capacity ? ['2', '6'] : ['2']);
    expect(states[2]).to.equal(Math.min(paid.length, capacity));
    expect(states[2] + (states[6] ?? 0)).to.equal(paid.length);
    expect(subscriptions).to.deep.equal({ total: states[2], active: states[2], doubled_orders: 0, shared_slots: 0 });
  });
  it('a catalog change made through one serve is served by the other within a second, both ways', async () => {
    const platform = await createPlatform();
    const [row] = await knex()('users')
      .insert({
        email: `cluster-admin-${Date.now()}@example.test`,
        password_hash: 'never used',
        role: 2,
        is_email_verified: true,
        language_id: 1,
        name: 'Admin',
      })
      .returning('*');
    const admin = { token: (await auth.startSession(row, false)).token, ip: '203.0.113.200' };
    const [a, b] = serves as [(typeof serves)[0], (typeof serves)[0]];
    const statusOn = async (base: string) => (await fetch(`${base}/api/platform/getplatform?id=${platform.id}`)).status;
    expect(await statusOn(b.url), 'B serves the platform (and has it in memory)').to.equal(200);

    for (const isEnabled of [false, true]) {
      const answer = await fetch(`${a.url}/api/catalog/platform?id=${platform.id}`, { headers: { authorization: `Bearer ${admin.token}` } });
      const editable = (await answer.json()) as { version: number };
      const changed = await call(a.url, '/api/catalog/setenabled', admin, { id: platform.id, isEnabled, version: editable.version });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      const changedAt = Date.now();
      await waitFor(async () => (await statusOn(b.url)) === (isEnabled ? 200 : 404), {
        timeoutMs: 1_000,
        intervalMs: 10,
        what: `B serving the platform ${isEnabled ? 'shown' : 'hidden'} through A`,
      });
      expect(Date.now() - changedAt, `ms until B served the platform ${isEnabled ? 'shown' : 'hidden'}`).to.be.below(1_000);
    }
  });
});
