/**
 * The access log (pino-http, packages/http/src/middleware/access-log.ts) and the request metrics:
 * every request is logged under its request id, with its method, path and status only (never the
 * query string or a header), and counted under its route template.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import request from 'supertest';
import { buildContainer, createLogger, PgBossJobQueue } from '@subshare/core';
import { createApp } from '@subshare/http';
import { harness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

describe('the access log and the request metrics', function () {
  this.timeout(30_000);

  it("takes the caller's request id, logs the request under it, and counts it under its route", async () => {
    const { config, knex, boss, clock } = harness();
    let written = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const container = buildContainer({
      config: { ...config, metrics: { ...config.metrics, token: 'log-metrics-token' } },
      knex,
      logger: createLogger('debug', sink),
      jobQueue: new PgBossJobQueue(boss),
      clock,
    });
    const app = createApp(container, { accessLog: true });
    const id = `log-${randomUUID()}`;
    const answered = await request(app).get('/api/platform/getplatform?id=1').set('X-Request-Id', id).expect(200);
    expect(answered.headers['x-request-id']).to.equal(id);
    const refused = await request(app).get('/api/platform/getplatform?id=abc').expect(400);
    const secret = `secret-${randomUUID()}`;
    const asked = await request(app)
      .get('/api/user/checkemail')
      .query({ email: `${secret}@example.test` })
      .set('Authorization', `Bearer ${secret}`)
      .expect(200);
    const lines = () =>
      written
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const completed = await waitFor(() => lines().find((line) => line.requestId === id && line.msg === 'request completed'), { what: 'the access log line' });
    expect(completed.req).to.deep.equal({ method: 'GET', path: '/api/platform/getplatform' });
    expect(completed.res).to.deep.equal({ statusCode: 200 });
    const refusal = await waitFor(() => lines().find((line) => line.requestId === refused.headers['x-request-id'] && line.msg === 'request completed'), {
      what: "the refused request's log line",
    });
    expect(refusal.res).to.deep.equal({ statusCode: 400 });
    const checked = await waitFor(() => lines().find((line) => line.requestId === asked.headers['x-request-id'] && line.msg === 'request completed'), {
      what: 'the checkemail line',
    });
    expect(checked.req).to.deep.equal({ method: 'GET', path: '/api/user/checkemail' });
    expect(written, 'no query value and no header in the log').to.not.contain(secret);
    const metrics = await request(app).get('/metrics').set('Authorization', 'Bearer log-metrics-token').expect(200);
    expect(metrics.text).to.match(/subshare_http_request_duration_seconds_count\{method="GET",route="\/api\/platform\/getplatform",status="200"\} [1-9]/);
    expect(metrics.text).to.match(/subshare_http_request_duration_seconds_count\{method="GET",route="\/api\/platform\/getplatform",status="400"\} [1-9]/);
  });
});
