import { expect } from 'chai';
import type { Express } from 'express';
import { describedCalls, routeTable } from '@subshare/http';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every `/api` route the app serves, as `METHOD path`, read from Express's own router. */
function servedRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods))
          if (layer.route.path.startsWith('/api/')) found.push(`${method.toUpperCase()} ${layer.route.path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found.sort();
}

type ApiCall = ReturnType<typeof describedCalls>[number];

const key = (call: ApiCall) => `${call.method.toUpperCase()} ${call.path}`;
const concretePath = (call: ApiCall) => call.path.replace(/:\w+/g, '1');

function send(call: ApiCall, headers: Record<string, string> = {}) {
  const client = api().set(headers);
  return call.method === 'get' ? client.get(concretePath(call)) : client.post(concretePath(call)).send({});
}

/**
 * `/api/openapi.json` describes every call, and the description is held to the truth: the list
 * of calls equals the routes Express serves, and each call's documented access is what its
 * guard really does, asked over HTTP (no token, a buyer, an unverified user, a moderator).
 */
describe('API description (/api/openapi.json) and the guards it documents', function () {
  this.timeout(60_000);
  let API_CALLS: ApiCall[];

  before(() => {
    API_CALLS = describedCalls(routeTable(harness().container));
  });

  it('serves an OpenAPI 3.1 document naming every call with its parameters, errors and access', async () => {
    const res = await api().get('/api/openapi.json').expect(200).expect('Content-Type', /json/);
    expect(res.body.openapi).to.equal('3.1.0');
    for (const call of API_CALLS) {
      const operation = res.body.paths[call.path.replace(/:(\w+)/g, '{$1}')]?.[call.method];
      expect(operation, key(call)).to.be.an('object');
      expect(operation['x-access']).to.equal(call.access);
    }
    const panel = res.body.paths['/api/user/getuserpanel'].get;
    expect(panel.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).to.deep.equal(['query:id', 'query:languageId']);
    expect(res.body.paths['/api/subscribe/getbemails'].get.parameters.map((p: { name: string }) => p.name)).to.include('plaformId');
    const insert = res.body.paths['/api/subscribe/insert'].post;
    expect(insert.requestBody.content['application/json'].schema.required).to.have.members(['email', 'password', 'platformId', 'slotsCount', 'femail']);
    expect(insert.responses).to.have.keys('200', '400', '401', '403', '404', '409', '413', '503');
    expect(res.body.components.schemas.Error.required).to.deep.equal(['message', 'code']);
  });

  it('gives every operation a unique operationId, a declared tag, and an error answer per status whose code is an enum of its codes', async () => {
    const { body } = await api().get('/api/openapi.json').expect(200);
    const declaredTags = new Set(body.tags.map((tag: { name: string }) => tag.name));
    const ids: string[] = [];
    for (const [path, methods] of Object.entries<Record<string, Record<string, unknown>>>(body.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${path}`;
        ids.push(operation.operationId as string);
        for (const tag of operation.tags as string[]) expect(declaredTags.has(tag), `${where} tag ${tag}`).to.equal(true);
        const responses = operation.responses as Record<
          string,
          { content?: Record<string, { schema: { allOf?: Array<{ properties?: { code?: { enum?: string[] } } }> } }> }
        >;
        // Every call can meet a database that is down.
        expect(responses, where).to.have.property('503');
        for (const [status, response] of Object.entries(responses).filter(([status]) => Number(status) >= 400)) {
          const codes = response.content?.['application/json']?.schema.allOf?.[1]?.properties?.code?.enum;
          expect(codes, `${where} ${status}`).to.be.an('array').that.is.not.empty;
        }
      }
    }
    expect(ids.filter((id) => typeof id !== 'string' || id === '')).to.deep.equal([]);
    expect(new Set(ids).size, 'operationIds are unique').to.equal(ids.length);
    // A named thing not found is declared where the call names one.
    expect(body.paths['/api/order/getorder'].get.responses['404'].content['application/json'].schema.allOf[1].properties.code.enum).to.include(
      'order_not_found',
    );
    // The provider notifications declare their body and the signature header.
    const stripe = body.paths['/api/webhook/stripe'].post;
    expect(stripe.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).to.deep.equal(['header:Stripe-Signature']);
    expect(stripe.requestBody.content['application/json'].schema.required).to.include.members(['id', 'type', 'data']);
    expect(body.paths['/api/webhook/payssion'].post.requestBody.content['application/x-www-form-urlencoded'].schema.required).to.include('notify_sig');
  });

  it('lists exactly the routes the app serves, no more and no fewer', () => {
    expect(API_CALLS.map(key).sort()).to.deep.equal(servedRoutes(harness().app));
  });

  describe('each call is guarded as documented', () => {
    let buyer: TestUser;
    let unverified: TestUser;
    let moderator: TestUser;

    before(async () => {
      [buyer, unverified, moderator] = await Promise.all([loginAs('user'), loginAs('user', { verified: false }), loginAs('moderator')]);
    });

    // Logging out would revoke the token the other calls use; its guard is checked without a token only.
    const withToken = (call: ApiCall) => call.path !== '/api/user/logout';

    it('public and provider calls need no token; every other call answers 401 without one', async () => {
      for (const call of API_CALLS) {
        const res = await send(call);
        if (call.access === 'public' || call.access === 'provider') expect(res.status, key(call)).to.not.be.oneOf([401, 403]);
        else expect([res.status, res.body.code], key(call)).to.deep.equal([401, 'missing_token']);
      }
    });

    it('a buyer passes user and verified guards, and gets 403 from staff and admin calls', async () => {
      for (const call of API_CALLS.filter((candidate) => ['user', 'verified', 'staff', 'admin'].includes(candidate.access) && withToken(candidate))) {
        const res = await send(call, buyer.auth);
        if (call.access === 'staff' || call.access === 'admin') expect([res.status, res.body.code], key(call)).to.deep.equal([403, 'forbidden']);
        else expect(res.status, key(call)).to.not.be.oneOf([401, 403]);
      }
    });

    it('an unverified user gets 403 email_not_verified from verified calls only', async () => {
      for (const call of API_CALLS.filter((candidate) => ['user', 'verified'].includes(candidate.access) && withToken(candidate))) {
        const res = await send(call, unverified.auth);
        if (call.access === 'verified') expect([res.status, res.body.code], key(call)).to.deep.equal([403, 'email_not_verified']);
        else expect(res.status, key(call)).to.not.equal(401);
      }
    });

    it('a moderator passes staff guards and gets 403 from admin calls', async () => {
      for (const call of API_CALLS.filter((candidate) => candidate.access === 'staff' || candidate.access === 'admin')) {
        const res = await send(call, moderator.auth);
        if (call.access === 'admin') expect([res.status, res.body.code], key(call)).to.deep.equal([403, 'forbidden']);
        else expect(res.status, key(call)).to.not.be.oneOf([401, 403]);
      }
    });
  });
});
