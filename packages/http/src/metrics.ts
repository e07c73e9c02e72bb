/**
 * GET /metrics in Prometheus text format (prom-client), off unless METRICS_TOKEN is set: then a
 * scrape must send `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time); without
 * the token the path answers 404, as if it did not exist.
 *
 * - `subshare_http_request_duration_seconds{method,route,status}`: per route template
 *   (`/demo-checkout/:token`, never the path itself, so ids and tokens never become labels;
 *   `static` for files, `unmatched` for answers no route gave);
 * - read from the database at scrape time (core's ShopMetricsFlow, bounded by
 *   METRICS_DATABASE_TIMEOUT_MS): jobs per pg-boss queue and state, the outbox backlog and the age
 *   of its oldest pending e-mail, paid orders waiting past the 24-hour promise, activation latency,
 *   automatic renewals attempted, succeeded and failed (`subshare_renewals_total{outcome}`);
 *   `subshare_metrics_database_up` says whether they could be read (they are left out when not);
 * - Node's process metrics (prom-client's defaults).
 *
 * Every `serve` process has its own request histogram; the database figures are the same in each.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Container } from 'inversify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, Summary } from 'prom-client';
import { TOKENS, type AppConfig, type Logger, type ShopMetrics, ShopMetricsFlow } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { ACTIVATION_HOURS } from '@subshare/core/promises';

/** How long a scrape waits for the database figures. */
export const METRICS_DATABASE_TIMEOUT_MS = 2_000;

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface HttpMetrics {
  /** Times every request; mount it before the routes. */
  observe: RequestHandler;
  /** GET /metrics. */
  routes: Router;
  /** Times a request answered outside Express (front-door.ts) under its route template. */
  timeAs(req: IncomingMessage, res: ServerResponse, route: string): void;
}

/** The route template that answered, never the raw path. */
function routeOf(req: Request, res: Response): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${req.baseUrl ?? ''}${path}`;
  return res.statusCode === 404 ? 'unmatched' : 'static';
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant time whatever the offered value's length: both sides are hashed to 32 bytes first. */
function tokenMatches(offered: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer (.+)$/.exec(offered ?? '');
  return timingSafeEqual(sha256(match?.[1] ?? ''), expected) && match !== null;
}

/** The metrics of one app, or a /metrics that answers 404 when METRICS_TOKEN is not set. */
export function createHttpMetrics(container: Container): HttpMetrics {
  const config = container.get<AppConfig>(TOKENS.Config);
  const token = config.metrics.token;
  const routes = Router();
  if (!token) {
    routes.get(calls.pages.metrics.path, (_req, res) => {
      res.status(404).type('text/plain').send('Not found.');
    });
    return { observe: (_req, _res, next) => next(), routes, timeAs: () => undefined };
  }

  const logger = container.get<Logger>(TOKENS.Logger);
  const shop = container.get(ShopMetricsFlow);
  const expected = sha256(token);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'subshare_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const databaseUp = gauge(registry, 'subshare_metrics_database_up', 'Whether this scrape could read the database figures (1) or not (0)');
  const jobs = gauge(
    registry,
    'subshare_jobs',
    'pg-boss jobs by queue and state (created: waiting or to retry; active; failed: gave up after its retries), 0 for none',
    ['queue', 'state'],
  );
  const outboxPending = gauge(registry, 'subshare_email_outbox_pending', 'E-mails waiting for the SMTP server');
  const outboxFailed = gauge(registry, 'subshare_email_outbox_failed', 'E-mails whose delivery gave up (staff can retry them)');
  const outboxOldest = gauge(registry, 'subshare_email_outbox_oldest_pending_age_seconds', 'Age of the oldest pending e-mail (0 when none waits)');
  const waiting = gauge(registry, 'subshare_orders_waiting_past_promise', `Paid orders still waiting for activation ${ACTIVATION_HOURS} hours after payment`);
  const activations = gauge(registry, 'subshare_activations_completed_24h', 'Orders completed in the last 24 hours');
  // A summary, as Prometheus reserves the `quantile` label for summaries: the orders completed
  // in the last 24 hours, read again at each scrape (quantile 1: the longest).
  const latency = new Summary({
    name: 'subshare_activation_latency_seconds',
    help: 'Payment to activation of the orders completed in the last 24 hours',
    percentiles: [0.5, 0.9, 0.99, 1],
    registers: [registry],
  });
  const accounts = gauge(registry, 'subshare_platform_accounts', 'Active platform accounts by health state (ok, attention, broken)', ['state']);
  // A counter: only counters may end in `_total` (a gauge so named breaks rate() and promtool's
  // lint). The totals are the database's (renewal_charges), set again at each scrape, so they
  // are the same in every process and survive restarts; they only ever grow.
  const renewals = new Counter({
    name: 'subshare_renewals_total',
    help: 'Automatic renewal since the start, by outcome: attempted (charges sent to the provider), succeeded (periods renewed), failed (declines)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const databaseMetrics = [jobs, outboxPending, outboxFailed, outboxOldest, waiting, activations, latency, accounts, renewals];

  const record = (figures: ShopMetrics) => {
    for (const { queue, state, count } of figures.jobs) jobs.set({ queue, state }, count);
    outboxPending.set(figures.outbox.pending);
    outboxFailed.set(figures.outbox.failed);
    outboxOldest.set(figures.outbox.oldestPendingSeconds);
    waiting.set(figures.ordersWaitingPastPromise);
    activations.set(figures.activation.completed);
    for (const seconds of figures.activation.seconds) latency.observe(seconds);
    for (const [state, count] of Object.entries(figures.accountHealth)) accounts.set({ state }, count);
    for (const outcome of ['attempted', 'succeeded', 'failed'] as const) renewals.inc({ outcome }, figures.renewals[outcome]);
  };

  routes.get(calls.pages.metrics.path, async (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!tokenMatches(req.get('authorization'), expected)) {
      res.status(401).setHeader('WWW-Authenticate', 'Bearer realm="metrics"').type('text/plain').send('A valid bearer token is required.');
      return;
    }
    try {
      const figures = await withinTime(shop.snapshot(METRICS_DATABASE_TIMEOUT_MS), METRICS_DATABASE_TIMEOUT_MS + 500);
      // Queues that emptied since the last scrape must not keep their old counts.
      for (const metric of databaseMetrics) metric.reset();
      record(figures);
      databaseUp.set(1);
    } catch (error) {
      for (const metric of databaseMetrics) metric.reset();
      databaseUp.set(0);
      logger.warn({ err: error }, 'metrics: the database figures could not be read');
    }
    try {
      res.type(registry.contentType).send(await registry.metrics());
    } catch (error) {
      next(error);
    }
  });

  const time = (req: IncomingMessage, res: ServerResponse, route: (() => string) | string) => {
    const end = duration.startTimer();
    res.once('finish', () => end({ method: req.method, route: typeof route === 'string' ? route : route(), status: String(res.statusCode) }));
  };
  const observe: RequestHandler = (req, res, next) => {
    time(req, res, () => routeOf(req, res));
    next();
  };
  return { observe, routes, timeAs: time };
}

function gauge<L extends string = never>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
  return new Gauge<L>({ name, help, labelNames, registers: [registry] });
}

/** The promise's value, or a rejection after `ms` (the work itself ends with the pool's bounds). */
async function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => undefined); // a late failure after the timeout is not an unhandled rejection
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
