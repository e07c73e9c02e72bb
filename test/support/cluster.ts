/**
 * The shop as a cluster (issue 16), for the test files under test/cluster/: two `subshare serve`
 * and two `subshare worker` processes of the built CLI on one PostgreSQL (the file's database on
 * the run's server), a round-robin proxy in front of the two `serve`, a Stripe of the test's own
 * speaking Stripe's protocol, and the SMTP server of the harness. `useCluster()` starts it before
 * the file's tests and stops it after them (every process must stop cleanly on SIGTERM); its
 * helpers buy and pay through the proxy and read what the cluster did from the database.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { AuthService } from '@subshare/core';
import { exited, spawnCli } from './cli.js';
import { FakeStripe } from './fake-stripe.js';
import { onFreePort } from './ports.js';
import { harness, testEnv } from './harness.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';
import { jobsIn, orderInput, UNFINISHED_JOB_STATES, type TestPlatform } from './shop.js';
import { waitFor } from './wait.js';

export interface ClusterBuyer {
  id: number;
  token: string;
  ip: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const knex = () => harness().knex;

export class Cluster {
  readonly stripe = new FakeStripe();
  serves: Array<{ child: ReturnType<typeof spawnCli>; url: string }> = [];
  workers: Array<ReturnType<typeof spawnCli>> = [];
  proxy!: RoundRobinProxy;
  private env: Record<string, string> = {};
  private ipCounter = 0;

  private get auth(): AuthService {
    return harness().container.get(AuthService);
  }

  async start(): Promise<void> {
    await this.stripe.start();
    // One configuration for every process, as behind a load balancer: the harness's secrets, so the
    // tokens and the stored account passwords made here are good in the cluster.
    this.env = testEnv(harness().db.url, {
      ...this.stripe.env,
      SMTP_URL: harness().smtp.url,
      TRUST_PROXY: 'loopback',
      TOKEN_SECRET: harness().config.tokenSecret.toString('utf8'),
      CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64'),
      LOG_LEVEL: 'info',
      // The burst asks what 1,000 buyers at once get: exactly-once slots and notifications, no
      // error. In npm test these files share two cores with browser files, and a request starved
      // of CPU can wait past the defaults (3 s without a free connection, 5 s a statement), where
      // the shop rightly sheds load with a fast 503 (one of 1,000 did, once, in CI). The bounds
      // that say "the database is gone" are not what these tests are about: wide ones here.
      DATABASE_ACQUIRE_TIMEOUT_MS: '60000',
      DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    });
    this.serves = await Promise.all([this.startServe(), this.startServe()]);
    this.workers = await Promise.all([this.startWorker(), this.startWorker()]);
    this.proxy = await startRoundRobinProxy(this.serves.map((serve) => serve.url));
  }

  /** Stops the proxy and every process with SIGTERM; answers their exit codes. */
  async stop(): Promise<Array<number | null>> {
    await this.proxy?.close();
    const children: ChildProcess[] = [...this.serves.map((serve) => serve.child), ...this.workers];
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    const codes = await Promise.all(children.map((child) => exited(child)));
    await this.stripe.stop();
    return codes;
  }

  private startServe() {
    return onFreePort(async (port) => {
      const child = spawnCli(['serve'], { ...this.env, PORT: String(port) });
      await waitFor(() => child.output().includes('HTTP server listening') || child.exitCode !== null, {
        timeoutMs: 60_000,
        intervalMs: 50,
        what: `serve on ${port}`,
      });
      expect(child.exitCode, child.output()).to.equal(null);
      return { child, url: `http://127.0.0.1:${port}` };
    });
  }

  async startWorker() {
    const child = spawnCli(['worker'], this.env);
    await waitFor(() => child.output().includes('worker started') || child.exitCode !== null, { timeoutMs: 60_000, intervalMs: 50, what: 'a worker' });
    expect(child.exitCode, child.output()).to.equal(null);
    return child;
  }

  /** `count` verified buyers, each with a login token (sessions made in the database: argon2 × 1,000 would only measure argon2). */
  async buyers(count: number): Promise<ClusterBuyer[]> {
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
        this.ipCounter += 1;
        const { token } = await this.auth.startSession(row, false);
        return { id: row.id as number, token, ip: `203.0.${Math.floor(this.ipCounter / 250) % 250}.${(this.ipCounter % 250) + 1}` };
      }),
    );
  }

  /** A staff member with a login token. */
  async admin(): Promise<{ token: string; ip: string }> {
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
    return { token: (await this.auth.startSession(row, false)).token, ip: '203.0.113.200' };
  }

  async call(base: string, route: string, who: { token: string; ip: string }, body: unknown) {
    const response = await fetch(`${base}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}`, 'x-forwarded-for': who.ip },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** A buyer orders one month of the platform and starts a card checkout, both through the proxy; answers the Stripe session. */
  async buy(platform: TestPlatform, who: ClusterBuyer): Promise<{ orderId: number; sessionId: string }> {
    const order = await this.call(this.proxy.url, '/api/order/insert', who, orderInput(platform));
    expect(order.status, JSON.stringify(order.body)).to.equal(200);
    const orderId = order.body.id as number;
    const checkout = await this.call(this.proxy.url, '/api/payment/createcheckoutsession', who, { orderId });
    expect(checkout.status, JSON.stringify(checkout.body)).to.equal(200);
    const payment = await knex()('payments').where({ order_id: orderId, provider: 'stripe' }).first('provider_reference');
    return { orderId, sessionId: payment.provider_reference as string };
  }

  /** Stripe takes the money and tells the shop: the same signed event, sent to the given `serve` processes at once. */
  async pay(sessionId: string, to: string[]) {
    this.stripe.pay(sessionId);
    const delivery = this.stripe.webhook(sessionId, 'checkout.session.completed', { timestamp: nowSeconds() });
    const answers = await Promise.all(to.map((base) => this.stripe.deliver(`${base}/api/webhook/stripe`, delivery)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer)).to.equal(200);
  }
}

/** Starts the cluster before this file's tests and stops it after them. */
export function useCluster(): Cluster {
  const cluster = new Cluster();
  before(async function () {
    this.timeout(300_000);
    await cluster.start();
  });
  after(async function () {
    this.timeout(120_000);
    const codes = await cluster.stop();
    expect(codes, 'every process stops cleanly on SIGTERM').to.deep.equal(codes.map(() => 0));
  });
  return cluster;
}

export function unfinishedActivations(): Promise<number> {
  return jobsIn(['order-activate'], UNFINISHED_JOB_STATES);
}

export function runningActivations(): Promise<number> {
  return jobsIn(['order-activate', 'account-created'], ['active']);
}

export async function ordersByState(orderIds: number[]): Promise<Record<number, number>> {
  const rows = await knex()('orders').whereIn('id', orderIds).select('state').count<Array<{ state: number; count: string }>>('* as count').groupBy('state');
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
}

/** Subscriptions of these orders: how many, how many orders hold more than one, how many slots are held twice. */
export async function subscriptionsOf(orderIds: number[]) {
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
