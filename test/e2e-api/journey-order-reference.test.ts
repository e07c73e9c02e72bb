import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Express } from 'express';
import { CATALOG_CHANNEL, DatabaseEvents, createLogger, loadConfig, openRuntime, type Runtime } from '@subshare/core';
import { createApp, listen } from '@subshare/http';
import { startWorker, type WorkerHandle } from '@subshare/worker';
import { api, createUser, logIn, type TestUser } from '../support/agent.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness, testEnv } from '../support/harness.js';
import { PgWireRecorder, type WireStatement } from '../support/pg-wire-recorder.js';
import { createAccount, createPlatform, orderInput, type TestPlatform } from '../support/shop.js';
import { activationCompleted, causedByAnOrder, pgbenchStatements, shapeDiff, statementShape } from '../support/sql-shapes.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait.js';

const SCRIPT = path.join(import.meta.dirname, '../../bench/journey-order.sql');

/**
 * bench/journey-order.sql, pgbench's reference for the checkout throughput, is meant to be exactly
 * the statements the shop sends for one order. This captures one order through the real HTTP API
 * (order, checkout with a local Stripe, its signed notification, the worker's activation), reading
 * every statement the shop sends to PostgreSQL off the wire, and compares their shapes (verb and
 * table, in order, transactions included) with the script's: a statement the checkout gains or
 * loses fails here until the script is captured again (`npm run bench:journey -- --capture`).
 */
describe('bench/journey-order.sql: the statements of one order', function () {
  this.timeout(60_000);
  const stripe = new FakeStripe();
  const recorder = new PgWireRecorder();
  let proxy: TcpProxy;
  let runtime: Runtime;
  let worker: WorkerHandle;
  let server: { url: string; close(): Promise<void> };
  let stopStripe: () => Promise<void>;
  let platform: TestPlatform;
  let app: Express;

  before(async () => {
    ({ stop: stopStripe } = await stripe.start());
    platform = await createPlatform();
    await createAccount(platform.id, 5);
    const target = new URL(harness().db.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port), recorder.tap);
    const config = loadConfig(testEnv(proxy.urlFor(harness().db.url), { ...stripe.env, TRUST_PROXY: 'loopback' }));
    runtime = await openRuntime(config, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), { supervise: false });
    app = createApp(runtime.container, { accessLog: false });
    server = await listen(app, 0, '127.0.0.1');
    worker = await startWorker(runtime.boss, runtime.container);
  });

  after(async () => {
    await worker?.stop();
    await server?.close();
    await runtime?.close();
    await proxy?.close();
    await stopStripe?.();
  });

  /** An order placed, checked out, paid and activated, as bench/journey.mjs's buyers do; what the shop sent meanwhile. */
  async function order(buyer: TestUser): Promise<WireStatement[]> {
    recorder.start();
    const placed = await api(app).post('/api/order/insert').set(buyer.auth).send(orderInput(platform)).expect(200);
    const checkout = await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: placed.body.id }).expect(200);
    const sessionId = new URL(checkout.body.url).pathname.split('/').pop()!;
    stripe.pay(sessionId);
    const delivered = await stripe.deliver(`${server.url}/api/webhook/stripe`, stripe.webhook(sessionId, 'checkout.session.completed'));
    expect(delivered.status).to.equal(200);
    await waitFor(() => recorder.statements.some(activationCompleted), { what: `order ${placed.body.id}'s activation job to complete` });
    return recorder.stop();
  }

  it("sends the statements journey-order.sql runs, in the script's order and transactions", async () => {
    const [warm, buyer] = [await logIn(await createUser(), app), await logIn(await createUser(), app)];
    await order(warm);
    // The catalog is read from memory once the process listens for its changes; the listen's
    // start forgets what was read before it, so one more order fills the cache for good.
    await waitFor(() => runtime.container.get(DatabaseEvents).listening(CATALOG_CHANNEL), { what: 'the catalog to listen for changes' });
    await order(warm);
    const captured = await order(buyer);

    const shop = captured.filter(causedByAnOrder).map((statement) => statementShape(statement.sql));
    const script = pgbenchStatements(readFileSync(SCRIPT, 'utf8')).map(statementShape);
    expect(shop, 'the shop sent statements of no known shape').not.to.satisfy((shapes: string[]) => shapes.some((shape) => shape.startsWith('other ')));
    const differences = shapeDiff(shop, script);
    expect(differences, `the shapes of the shop's statements for one order (-) and of journey-order.sql's (+):\n${differences.join('\n')}\n`).to.be.empty;
  });
});
