/**
 * The lane (packages/http/src/lane.ts): the storefront's catalog reads and the buyer's panel are
 * answered ahead of Express. Express's router holds the same lines and still answers what the lane leaves to it
 * (a trailing slash, HEAD), so each request is asked both ways here and the answers must be the
 * same: status, body and every header but the date and the request's own id. The lane must also
 * log, count and identify its requests as every other path does.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import request, { type Response } from 'supertest';
import { buildContainer, createLogger, PgBossJobQueue } from '@subshare/core';
import { createApp } from '@subshare/http';
import { api, loginAs, uniqueIp } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { activation, createAccount, createPlatform, markPaidQuietly, orderInput } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/** The same call through Express's router: the lane matches exact paths only. */
const viaExpress = (url: string) => url.replace(/^([^?]*)/, '$1/');

function comparable(res: Response) {
  const headers: Record<string, unknown> = { ...res.headers };
  delete headers.date;
  delete headers['x-request-id'];
  return { status: res.status, headers, body: res.status === 304 ? '' : res.text };
}

describe('the lane: catalog reads and the panel answered ahead of Express', function () {
  this.timeout(30_000);

  it('answers as Express would, header for header, in every encoding, language, currency, failure and revalidation', async () => {
    const { app } = harness();
    const home = await request(app).get('/api/main/home').set('Accept-Encoding', 'br').expect(200);
    const cases: Array<{ url: string; headers: Record<string, string> }> = [
      { url: '/api/main/home', headers: { 'Accept-Encoding': 'gzip, deflate, br', 'Accept-Language': 'en' } },
      { url: '/api/main/home', headers: { 'Accept-Encoding': 'gzip', 'Accept-Language': 'ko-KR,en;q=0.5' } },
      { url: '/api/main/home', headers: { 'Accept-Encoding': 'identity' } },
      { url: '/api/main/home', headers: { 'Accept-Encoding': 'br;q=0, gzip;q=0.5' } },
      { url: '/api/main/home?languageId=2&currency=EUR', headers: { 'Accept-Encoding': '*' } },
      { url: '/api/main/home', headers: { 'If-None-Match': home.headers.etag as string } },
      { url: '/api/main/home', headers: { 'If-None-Match': home.headers.etag as string, 'Cache-Control': 'no-cache' } },
      { url: '/api/platform/getplatform?id=1', headers: { 'Accept-Encoding': 'gzip, deflate, br' } },
      { url: '/api/platform/getplatform?id=1&currency=KRW&languageId=2', headers: {} },
      { url: '/api/platform/getplatform?id=999999', headers: {} },
      { url: '/api/platform/getplatform?id=abc', headers: {} },
      { url: '/api/platform/getplatform', headers: {} },
      { url: '/api/main/home?currency=XXX', headers: {} },
    ];
    const statuses = new Set<number>();
    for (const { url, headers } of cases) {
      const lane = await request(app).get(url).set(headers);
      const express = await request(app).get(viaExpress(url)).set(headers);
      expect(comparable(lane), `${url} ${JSON.stringify(headers)}`).to.deep.equal(comparable(express));
      expect(lane.headers['x-request-id'], url).to.be.a('string').and.not.equal(express.headers['x-request-id']);
      statuses.add(lane.status);
    }
    // The cases reach every kind of answer: sent, not modified, refused, not found.
    expect([...statuses].sort()).to.deep.equal([200, 304, 400, 404]);
    // What Express alone answers: HEAD, with the headers of the GET.
    const head = await request(app).head('/api/main/home').set('Accept-Encoding', 'br').expect(200);
    expect(head.headers.etag).to.equal(home.headers.etag);
  });

  it("answers the buyer's panel as Express would: the owner, staff, a stranger, no or a bad token, a bad query, and the audited client address", async () => {
    const { app } = harness();
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const owner = await loginAs('user');
    const { body: placed } = await api().post('/api/order/insert').set(owner.auth).send(orderInput(platform)).expect(200);
    const orderId = (placed as { id: number }).id;
    await markPaidQuietly(orderId);
    await activation().activate(orderId);
    const stranger = await loginAs('user');
    const admin = await loginAs('admin');
    const panel = (id: unknown) => `/api/user/getuserpanel?id=${String(id)}&languageId=1`;
    const cases: Array<{ url: string; headers: Record<string, string> }> = [
      { url: panel(owner.id), headers: { ...owner.auth, 'Accept-Encoding': 'gzip, deflate, br' } },
      { url: panel(owner.id), headers: { ...owner.auth, 'Accept-Encoding': 'gzip' } },
      { url: panel(owner.id), headers: { ...owner.auth, 'Accept-Encoding': 'identity' } },
      { url: panel(owner.id), headers: { ...admin.auth } },
      { url: panel(owner.id), headers: { ...stranger.auth } },
      { url: panel(owner.id), headers: {} },
      { url: panel('abc'), headers: {} },
      { url: panel(owner.id), headers: { Authorization: 'Bearer not.a.token' } },
      { url: panel('abc'), headers: { ...owner.auth } },
      { url: `${panel(owner.id)}&__proto__=1`, headers: { ...owner.auth } },
    ];
    const statuses: number[] = [];
    for (const { url, headers } of cases) {
      const lane = await request(app).get(url).set(headers);
      const express = await request(app).get(viaExpress(url)).set(headers);
      expect(comparable(lane), `${url} ${JSON.stringify(headers)}`).to.deep.equal(comparable(express));
      statuses.push(lane.status);
    }
    expect(statuses).to.deep.equal([200, 200, 200, 200, 403, 401, 401, 401, 400, 400]);
    // Staff reading another's credentials are audited under the client's address behind the trusted proxy.
    const ip = uniqueIp();
    await api(app, ip).get(panel(owner.id)).set(admin.auth).expect(200);
    const audited = await harness().knex('audit_log').where({ action: 'credentials.reveal', actor_user_id: admin.id }).orderBy('id', 'desc').first();
    expect(audited.ip).to.equal(ip);
  });

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
      config: { ...config, metrics: { ...config.metrics, token: 'lane-metrics-token' } },
      knex,
      logger: createLogger('debug', sink),
      jobQueue: new PgBossJobQueue(boss),
      clock,
    });
    const app = createApp(container, { accessLog: true });
    const id = `lane-${randomUUID()}`;
    const answered = await request(app).get('/api/platform/getplatform?id=1').set('X-Request-Id', id).expect(200);
    expect(answered.headers['x-request-id']).to.equal(id);
    const refused = await request(app).get('/api/platform/getplatform?id=abc').expect(400);
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
    const metrics = await request(app).get('/metrics').set('Authorization', 'Bearer lane-metrics-token').expect(200);
    expect(metrics.text).to.match(/subshare_http_request_duration_seconds_count\{method="GET",route="\/api\/platform\/getplatform",status="200"\} [1-9]/);
    expect(metrics.text).to.match(/subshare_http_request_duration_seconds_count\{method="GET",route="\/api\/platform\/getplatform",status="400"\} [1-9]/);
  });
});
