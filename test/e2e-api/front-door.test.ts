/**
 * The front door (packages/http/src/front-door.ts) answers the catalog reads and the buyer's
 * panel ahead of Express, as `serve` does. Each answer must be the one Express gives for the same
 * request (status, body, headers), with the same request id, access log line and request metric.
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import type { Express } from 'express';
import request, { type Response } from 'supertest';
import { createLogger } from '@subshare/core';
import { createServerHandler } from '@subshare/http';
import type { RequestListener } from 'node:http';
import { loginAs, uniqueIp, type TestUser } from '../support/agent.js';
import { containerWith } from '../support/containers.js';
import { harness } from '../support/harness.js';

const TOKEN = 'front-door-metrics-token-0123456789';
/** Headers that differ between any two answers. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

const headersOf = (res: Response) => Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_ANSWER.has(name)));

describe('the front door: the catalog reads and the panel ahead of Express', function () {
  this.timeout(60_000);
  let app: Express;
  let handle: RequestListener;
  let logged = '';
  let buyer: TestUser;

  before(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const { config } = harness().appWith({ METRICS_TOKEN: TOKEN });
    ({ app, handle } = createServerHandler(containerWith({ config, logger: createLogger('trace', sink) }), { accessLog: true }));
    buyer = await loginAs('user');
  });

  const ask = (through: Express | RequestListener, path: string, headers: Record<string, string> = {}) =>
    request(through)
      .get(path)
      .set({ 'X-Forwarded-For': uniqueIp(), 'Accept-Encoding': 'br, gzip', 'Accept-Language': 'en', ...headers });

  /** The same request through the front door and through Express alone: the same answer. */
  async function sameAsExpress(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const front = await ask(handle, path, headers);
    const express = await ask(app, path, headers);
    expect(front.status, `${path}: status`).to.equal(express.status);
    expect(front.body, `${path}: body`).to.deep.equal(express.body);
    return front;
  }

  it('answers the catalog reads with the bytes, headers and 304 that Express gives', async () => {
    for (const path of ['/api/main/home', '/api/platform/getplatform?id=1']) {
      const front = await sameAsExpress(path);
      expect(front.status).to.equal(200);
      expect(headersOf(front)).to.deep.equal(headersOf(await ask(app, path)));
      expect(front.headers['content-security-policy']).to.be.a('string'); // helmet ran
      expect(front.headers['cache-control']).to.contain('s-maxage');
      const revalidated = await sameAsExpress(path, { 'If-None-Match': front.headers.etag as string });
      expect(revalidated.status).to.equal(304);
    }
  });

  it('answers errors as the app does: an unknown platform, a bad query, no token, a bad token', async () => {
    const cases: [string, Record<string, string>, number][] = [
      ['/api/platform/getplatform?id=987654', {}, 404],
      ['/api/platform/getplatform?id=abc', {}, 400],
      ['/api/user/getuserpanel', {}, 401],
      ['/api/user/getuserpanel', { Authorization: 'Bearer not-a-token' }, 401],
    ];
    for (const [path, headers, status] of cases) {
      const front = await sameAsExpress(path, headers);
      expect(front.status, path).to.equal(status);
      expect(front.body.code, path).to.be.a('string');
      expect(front.headers['cache-control'], path).to.equal('no-store');
      expect(front.headers['content-security-policy'], path).to.be.a('string');
    }
  });

  it("answers the buyer's panel as Express does", async () => {
    const front = await sameAsExpress(`/api/user/getuserpanel?id=${buyer.id}`, buyer.auth);
    expect(front.status).to.equal(200);
    expect(JSON.stringify(front.body)).to.contain(buyer.email);
    expect(front.headers['cache-control']).to.equal('no-store');
    expect(front.headers['content-security-policy']).to.be.a('string');
  });

  it('keeps the request id, the access log line and the request metric', async () => {
    const id = `front-door-${Date.now()}`;
    const res = await ask(handle, '/api/platform/getplatform?id=1', { 'X-Request-Id': id }).expect(200);
    expect(res.headers['x-request-id']).to.equal(id);
    const line = logged
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as { msg: string; requestId?: string; req?: { path?: string }; res?: { statusCode?: number } })
      .find((entry) => entry.requestId === id && entry.msg === 'request completed');
    expect(line, 'the access log line').to.not.equal(undefined);
    expect(line?.req?.path).to.equal('/api/platform/getplatform'); // never the query
    expect(line?.res?.statusCode).to.equal(200);
    const offered = await ask(handle, '/api/main/home', { 'X-Request-Id': 'bad id with spaces' });
    expect(offered.headers['x-request-id'])
      .to.match(/^[A-Za-z0-9._-]+$/)
      .and.not.equal('bad id with spaces');

    const count = async () => {
      const scrape = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      const match = /subshare_http_request_duration_seconds_count\{method="GET",route="\/api\/user\/getuserpanel",status="200"\} (\d+)/.exec(scrape.text);
      return Number(match?.[1] ?? 0);
    };
    const before = await count();
    await ask(handle, `/api/user/getuserpanel?id=${buyer.id}`, buyer.auth).expect(200);
    expect(await count()).to.equal(before + 1);
  });
});
