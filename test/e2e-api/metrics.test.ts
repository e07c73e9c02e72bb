/**
 * GET /metrics: off unless METRICS_TOKEN is set, then only for a bearer of that token, in
 * Prometheus text format 0.0.4; request durations labelled by route template (never a raw path),
 * and the database figures read at scrape time.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Express } from 'express';
import { api, loginAs } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { buyer, createOrder, createPlatform, markPaidQuietly } from '../support/shop.js';

const TOKEN = randomBytes(24).toString('hex');

/** The value of one sample line, e.g. sample(text, 'subshare_jobs{queue="x",state="created"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics (GET /metrics)', function () {
  this.timeout(30_000);
  let app: Express;
  const scrape = () => api(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);

  before(() => {
    app = harness().appWith({ METRICS_TOKEN: TOKEN }).app;
  });

  it('is off without METRICS_TOKEN: 404', async () => {
    await api().get('/metrics').expect(404);
    await api().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(404);
  });

  it('refuses a scrape without the token or with another one: 401', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, 'Bearer ', `Basic ${TOKEN}`, TOKEN]) {
      const request = api(app).get('/metrics');
      const res = await (authorization === undefined ? request : request.set('Authorization', authorization));
      expect(res.status, String(authorization)).to.equal(401);
      expect(res.headers['www-authenticate']).to.match(/^Bearer/);
      expect(res.text).to.not.contain('subshare_');
    }
  });

  it('answers a bearer of the token in Prometheus text format 0.0.4, with request durations by route template', async () => {
    const secret = randomBytes(8).toString('hex');
    await api(app).get(`/demo-checkout/${secret}`);
    await api(app)
      .get('/api/user/checkemail')
      .query({ email: `${secret}@example.test` })
      .expect(200);
    await api(app).get(`/api/no-such-call-${secret}`).expect(404);

    const res = await scrape().expect(200);
    expect(res.headers['content-type']).to.equal('text/plain; version=0.0.4; charset=utf-8');
    const text = res.text;
    expect(text).to.contain('# TYPE subshare_http_request_duration_seconds histogram');
    expect(sample(text, 'subshare_http_request_duration_seconds_count{method="GET",route="/api/user/checkemail",status="200"}')).to.be.at.least(1);
    expect(text).to.match(/subshare_http_request_duration_seconds_count\{method="GET",route="\/demo-checkout\/:token",status="\d{3}"\} [1-9]/);
    expect(sample(text, 'subshare_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).to.be.at.least(1);
    // Never a raw path, id or query value.
    expect(text).to.not.contain(secret);
    // Node's process metrics.
    expect(text).to.contain('process_cpu_seconds_total');
  });

  describe('figures read from the database at scrape time', () => {
    const queue = `metrics-test-${randomBytes(4).toString('hex')}`;
    const rows: number[] = [];
    const orderIds: number[] = [];

    before(async () => {
      const { boss, knex, clock } = harness();
      await boss.createQueue(queue, { retryLimit: 0 });
      await boss.send(queue, { n: 1 });
      await boss.send(queue, { n: 2 });
      const [fetched] = await boss.fetch(queue);
      await boss.fail(queue, fetched!.id);

      // An e-mail waiting for two hours and one that gave up (no job: nobody delivers them).
      const now = clock.now().getTime();
      const email = (status: string, ageMs: number) => ({
        kind: 1,
        to_address: 'metrics@example.test',
        language_id: 1,
        subject: 's',
        html: 'h',
        text: 't',
        status,
        created_at: new Date(now - ageMs),
      });
      const inserted = await knex('email_outbox')
        .insert([email('pending', 2 * 3600_000), email('failed', 3600_000)])
        .returning('id');
      rows.push(...inserted.map((row: { id: number }) => row.id));

      // A paid order waiting 30 hours, and one activated 10 minutes after payment.
      const platform = await createPlatform();
      const user = await buyer();
      const waiting = await createOrder(user, platform);
      // Paid before the next is made: the same choice while one is open (state 0) is that order again.
      await markPaidQuietly(waiting);
      const completed = await createOrder(user, platform);
      orderIds.push(waiting, completed);
      await knex('orders')
        .where({ id: waiting })
        .update({ paid_at: new Date(now - 30 * 3600_000) });
      await knex('orders')
        .where({ id: completed })
        .update({ state: 2, paid_at: new Date(now - 3600_000), completed_at: new Date(now - 3600_000 + 600_000) });
    });

    after(async () => {
      const { boss, knex } = harness();
      await boss.deleteQueue(queue);
      await knex('email_outbox').whereIn('id', rows).delete();
      // Out of the waiting list for the other test files (refunded keeps the payment time).
      await knex('orders').whereIn('id', orderIds).update({ state: 5 });
    });

    it('exports activation latency as a summary: the quantile label Prometheus reserves for summaries, with _sum and _count', async () => {
      const text = (await scrape().expect(200)).text;
      expect(text).to.contain('# TYPE subshare_activation_latency_seconds summary');
      expect(text).to.not.contain('# TYPE subshare_activation_latency_seconds gauge');
      expect(sample(text, 'subshare_activation_latency_seconds_count')).to.be.at.least(1);
      expect(sample(text, 'subshare_activation_latency_seconds_sum')).to.be.at.least(600);
    });

    it('exports the automatic renewals as a counter (only counters may end in _total), with the totals of renewal_charges', async () => {
      const text = (await scrape().expect(200)).text;
      expect(text).to.contain('# TYPE subshare_renewals_total counter');
      expect(text).to.not.contain('# TYPE subshare_renewals_total gauge');
      const [row] = (await harness()
        .knex('renewal_charges')
        .where({ kind: 'auto' })
        .select(
          harness().knex.raw('coalesce(sum(attempts), 0)::int as attempted'),
          harness().knex.raw("count(*) filter (where status = 'succeeded')::int as succeeded"),
          harness().knex.raw('coalesce(sum(failures), 0)::int as failed'),
        )) as Array<Record<'attempted' | 'succeeded' | 'failed', number>>;
      for (const outcome of ['attempted', 'succeeded', 'failed'] as const) {
        expect(sample(text, `subshare_renewals_total{outcome="${outcome}"}`), outcome).to.equal(Number(row![outcome]));
      }
    });

    it('reports jobs per queue and state, the outbox backlog, orders waiting past 24 h and activation latency', async () => {
      const text = (await scrape().expect(200)).text;
      expect(sample(text, 'subshare_metrics_database_up')).to.equal(1);
      expect(sample(text, `subshare_jobs{queue="${queue}",state="created"}`)).to.equal(1);
      expect(sample(text, `subshare_jobs{queue="${queue}",state="failed"}`)).to.equal(1);
      // A state with no job is exported as 0, not left out.
      expect(sample(text, `subshare_jobs{queue="${queue}",state="active"}`)).to.equal(0);
      expect(sample(text, 'subshare_email_outbox_pending')).to.be.at.least(1);
      expect(sample(text, 'subshare_email_outbox_failed')).to.be.at.least(1);
      expect(sample(text, 'subshare_email_outbox_oldest_pending_age_seconds')).to.be.at.least(2 * 3600 - 5);
      expect(sample(text, 'subshare_orders_waiting_past_promise')).to.be.at.least(1);
      expect(sample(text, 'subshare_activations_completed_24h')).to.be.at.least(1);
      expect(sample(text, 'subshare_activation_latency_seconds{quantile="1"}')).to.be.at.least(600);
      for (const quantile of ['0.5', '0.9', '0.99']) {
        expect(sample(text, `subshare_activation_latency_seconds{quantile="${quantile}"}`), quantile).to.be.a('number').and.not.NaN;
      }

      // A queue that goes away no longer shows its old counts at the next scrape.
      await harness().boss.deleteQueue(queue);
      const later = (await scrape().expect(200)).text;
      expect(sample(later, `subshare_jobs{queue="${queue}",state="created"}`)).to.equal(undefined);
      expect(sample(later, `subshare_jobs{queue="${queue}",state="failed"}`)).to.equal(undefined);
    });
  });

  it('is reachable for staff no differently: the token decides, not a login', async () => {
    const admin = await loginAs('admin', { app });
    await api(app).get('/metrics').set(admin.auth).expect(401);
  });
});
