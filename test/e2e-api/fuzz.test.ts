/**
 * Hostile input on every call, generated from `/api/openapi.json`: for each operation and each
 * role, every declared field gets wrong types, operator objects, huge numbers, NUL bytes, broken
 * UTF-16, CRLF and 100 kB strings; fields go missing and extra ones appear; bodies become arrays,
 * strings, `null`, prototype keys and 5,000-deep nesting; query parameters repeat and take
 * `[$ne]`. Whatever the input, the shop must answer below 500, say what was wrong as JSON
 * `{ message, code }`, never hand out a token and never show one user another user's e-mail.
 * The list of calls comes from the served document, so a new call is fuzzed the day it is added.
 */
import { expect } from 'chai';
import { api, createUser, loginAs, uniqueEmail, uniqueIp, type TestUser } from '../support/agent.js';
import { listen } from '@subshare/http';
import { FakeCoinPal } from '../support/fake-coinpal.js';
import { FakeGoogle } from '../support/fake-google.js';
import { FakeKakao } from '../support/fake-kakao.js';
import { FakeNaver } from '../support/fake-naver.js';
import { FakePayssion } from '../support/fake-payssion.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness } from '../support/harness.js';

type Role = 'anonymous' | 'unverified' | 'buyer' | 'moderator' | 'admin';
const ROLES: Role[] = ['anonymous', 'unverified', 'buyer', 'moderator', 'admin'];

/** Which roles get past each documented access (the rest are answered by the guard before the input is read). */
const ADMITTED: Record<string, Role[]> = {
  public: ROLES,
  provider: ROLES,
  user: ['unverified', 'buyer', 'moderator', 'admin'],
  verified: ['buyer', 'moderator', 'admin'],
  staff: ['moderator', 'admin'],
  admin: ['admin'],
};

interface Param {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: { type: string; format?: string };
}
interface Operation {
  method: 'get' | 'post';
  path: string;
  access: string;
  params: Param[];
  body: Param[];
}
interface Case {
  operation: Operation;
  label: string;
  /** Path with its query string, already encoded. */
  url: string;
  body?: string;
  contentType?: string;
}

const DEPTH = 5_000;
const BIG = 'x'.repeat(100_000);
const deepObject = (leaf = '1') => '{"a":'.repeat(DEPTH) + leaf + '}'.repeat(DEPTH);
const deepArray = () => '['.repeat(DEPTH) + ']'.repeat(DEPTH);

/** JSON texts of hostile values for one body field. */
const BODY_VALUES: Array<[string, string]> = [
  ['operator object {"$ne":null}', '{"$ne":null}'],
  ['object {"$gt":""}', '{"$gt":""}'],
  ['empty array', '[]'],
  ['array', '["1","2"]'],
  ['number', '1'],
  ['fraction', '1.5'],
  ['huge number 1e308', '1e308'],
  ['2**64', '18446744073709551616'],
  ['negative', '-1'],
  ['boolean', 'true'],
  ['null', 'null'],
  ['empty string', '""'],
  ['numeric string', '"1"'],
  ['NUL byte', JSON.stringify('a\u0000b@example.test')],
  ['lone surrogate', '"\\ud800@example.test"'],
  ['CRLF', JSON.stringify('a\r\nBcc: x@example.test')],
  ['100 kB string', JSON.stringify(BIG)],
  ['5,000-deep object', deepObject()],
  ['prototype key in a value', '{"__proto__":{"admin":true}}'],
];

/** Already-encoded query values for one query parameter. */
const QUERY_VALUES: Array<[string, string]> = [
  ['word', 'abc'],
  ['empty', ''],
  ['fraction', '1.5'],
  ['huge number 1e308', '1e308'],
  ['2**64', '18446744073709551616'],
  ['negative', '-1'],
  ['boolean', 'true'],
  ['NUL byte', 'a%00b'],
  ['invalid UTF-8 (lone surrogate)', '%ED%A0%80'],
  ['broken percent-encoding', '%E0%A4%A'],
  ['CRLF', 'a%0D%0AX-Injected:%201'],
  ['8 kB string', 'x'.repeat(8_000)],
];

/** Already-encoded path segments for a path parameter. */
const PATH_VALUES: Array<[string, string]> = [
  ['word', 'abc'],
  ['huge number 1e308', '1e308'],
  ['2**64', '18446744073709551616'],
  ['negative', '-1'],
  ['NUL byte', '1%00'],
  ['invalid UTF-8', '%ED%A0%80'],
  ['broken percent-encoding', '%E0%A4%A'],
];

function baseline(param: Param): unknown {
  // A new address each time, so a call that succeeds (a sign-up) never changes what another case meets.
  if (param.schema.format === 'email') return uniqueEmail('fuzz');
  if (param.schema.type === 'integer' || param.schema.type === 'number') return 1;
  if (param.schema.type === 'boolean') return true;
  return 'x';
}

function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters as Param[] | undefined) ?? [];
      const schema = (
        op.requestBody as { content?: Record<string, { schema?: { properties?: Record<string, Param['schema']>; required?: string[] } }> } | undefined
      )?.content?.['application/json']?.schema;
      const body = Object.entries(schema?.properties ?? {}).map(([name, fieldSchema]) => ({
        name,
        in: 'query' as const,
        required: (schema?.required ?? []).includes(name),
        schema: fieldSchema,
      }));
      operations.push({ method: method as Operation['method'], path, access: String(op['x-access']), params, body });
    }
  }
  return operations;
}

function concretePath(operation: Operation, override?: [string, string]): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => (override && override[0] === name ? override[1] : '1'));
}

function queryOf(pairs: Array<[string, string]>): string {
  return pairs.length ? `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}` : '';
}

function getCases(operation: Operation): Case[] {
  const query = operation.params.filter((param) => param.in === 'query');
  const required = query.filter((param) => param.required);
  const base = (): Array<[string, string]> => required.map((param) => [param.name, encodeURIComponent(String(baseline(param)))]);
  const with_ = (name: string, value: string) => [...base().filter(([key]) => key !== name), [name, value] as [string, string]];
  const path = concretePath(operation);
  const cases: Case[] = [];
  const add = (label: string, pairs: Array<[string, string]>, url = path) => cases.push({ operation, label, url: url + queryOf(pairs) });
  add('baseline', base());
  add('nothing', []);
  add('extra parameter', [...base(), ['admin', 'true']]);
  add('__proto__ parameter', [...base(), ['__proto__', 'x']]);
  add('__proto__[admin]', [...base(), ['__proto__[admin]', 'true']]);
  add('constructor[prototype][admin]', [...base(), ['constructor[prototype][admin]', 'true']]);
  add('deep brackets', [...base(), [`a${'[a]'.repeat(500)}`, '1']]);
  for (const param of query) {
    const others = base().filter(([key]) => key !== param.name);
    if (param.required) add(`${param.name} missing`, others);
    add(`${param.name} repeated`, [...others, [param.name, '1'], [param.name, '2']]);
    add(`${param.name}[$ne]`, [...others, [`${param.name}[$ne]`, '1']]);
    for (const [label, value] of QUERY_VALUES) add(`${param.name}: ${label}`, with_(param.name, value));
  }
  for (const param of operation.params.filter((p) => p.in === 'path'))
    for (const [label, value] of PATH_VALUES) add(`path ${param.name}: ${label}`, base(), concretePath(operation, [param.name, value]));
  return cases;
}

function postCases(operation: Operation): Case[] {
  const path = concretePath(operation);
  const fields = operation.body;
  const entries = (replace?: [string, string], drop?: string) =>
    fields
      .filter((field) => field.name !== drop)
      .map((field) => `${JSON.stringify(field.name)}:${replace && replace[0] === field.name ? replace[1] : JSON.stringify(baseline(field))}`);
  const object = (parts: string[]) => `{${parts.join(',')}}`;
  const cases: Case[] = [];
  const add = (label: string, body: string | undefined, contentType = 'application/json') => cases.push({ operation, label, url: path, body, contentType });
  add('baseline', object(entries()));
  add('empty object', '{}');
  add('no body', undefined);
  add('array body', '[]');
  add('array of the object', `[${object(entries())}]`);
  add('string body', '"hello"');
  add('null body', 'null');
  add('number body', '1e308');
  add('malformed JSON', '{"a":');
  add('extra field', object([...entries(), '"admin":true', '"role":2', '"id":1']));
  add('__proto__ key', object(['"__proto__":{"admin":true,"role":2}', ...entries()]));
  add('constructor.prototype key', object(['"constructor":{"prototype":{"admin":true,"role":2}}', ...entries()]));
  add('5,000-deep object body', deepObject());
  add('5,000-deep array body', deepArray());
  add('form-encoded operator', 'email[$ne]=x&password[$ne]=x', 'application/x-www-form-urlencoded');
  add('JSON as text/plain', object(entries()), 'text/plain');
  add('100 kB body', object([...entries(), `"pad":${JSON.stringify(BIG)}`]));
  for (const field of fields) {
    if (field.required) add(`${field.name} missing`, object(entries(undefined, field.name)));
    for (const [label, value] of BODY_VALUES) add(`${field.name}: ${label}`, object(entries([field.name, value])));
  }
  return cases;
}

function casesOf(operation: Operation): Case[] {
  return operation.method === 'get' ? getCases(operation) : postCases(operation);
}

/** The few cases a role that the guard turns away still gets: the guard must come first and stay clean. */
function guardSample(cases: Case[]): Case[] {
  const wanted = ['baseline', '__proto__ key', '5,000-deep object body', 'nothing', '__proto__[admin]', 'malformed JSON'];
  return cases.filter((c) => wanted.includes(c.label) || /repeated$|\[\$ne\]$|: operator object/.test(c.label)).slice(0, 6);
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function send(baseUrl: string, c: Case, token?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'X-Forwarded-For': uniqueIp(), Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (c.body !== undefined && c.contentType) headers['Content-Type'] = c.contentType;
  const res = await fetch(baseUrl + c.url, {
    method: c.operation.method.toUpperCase(),
    headers,
    body: c.operation.method === 'post' ? c.body : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

const JWT = /eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]+/;

/**
 * The sign-in links' `state` parameter is a signed token too, on purpose: it names a provider's
 * state as its audience, is spent by its first callback and is refused as a session
 * (test/unit/signed-tokens.test.ts). Any other token in an answer is a leak.
 */
const withoutOAuthStates = (text: string) => text.replace(/([?&]|\\u0026)state=[\w.-]+/g, '$1state=');

/**
 * What is wrong with one answer, or nothing. A provider notification that is garbage answers
 * 400 (413 when too large); where that provider is not configured, 404 is fair too.
 */
function problems(c: Case, answer: Answer, foreignEmails: string[], providersConfigured: boolean): string[] {
  const found: string[] = [];
  if (answer.status >= 500) found.push(`answered ${answer.status}`);
  if (answer.status >= 400) {
    let body: { message?: unknown; code?: unknown } | undefined;
    try {
      body = /json/.test(answer.contentType) ? JSON.parse(answer.text) : undefined;
    } catch {
      body = undefined;
    }
    if (typeof body?.message !== 'string' || typeof body?.code !== 'string')
      found.push(`${answer.status} without JSON { message, code }: ${answer.text.slice(0, 80)}`);
  }
  if (c.operation.access === 'provider') {
    const fair = providersConfigured || c.operation.path === '/api/webhook/demo' ? [400, 413] : [400, 404, 413];
    if (!fair.includes(answer.status)) found.push(`provider call answered ${answer.status} to garbage`);
  }
  if (JWT.test(withoutOAuthStates(answer.text))) found.push('answer holds a token');
  const lower = answer.text.toLowerCase();
  for (const email of foreignEmails) if (lower.includes(email.toLowerCase())) found.push(`answer shows another user's e-mail ${email}`);
  return found;
}

interface World {
  baseUrl: string;
  providersConfigured: boolean;
  users: Partial<Record<Role, TestUser>>;
  bystander: string;
}

/** Sends every case of every operation as `role`; answers the list of what went wrong, grouped, and how many requests went out. */
async function sweep(world: World, operations: Operation[], role: Role): Promise<{ report: string[]; sent: number; statuses: Map<number, number> }> {
  const user = role === 'anonymous' ? undefined : world.users[role];
  const staff = role === 'moderator' || role === 'admin';
  // Staff may see other users' e-mails; nobody else may.
  const foreign = staff ? [] : [world.bystander, ...ROLES.filter((r) => r !== role && r !== 'anonymous').map((r) => world.users[r]!.email)];
  const plan = (ops: Operation[]) =>
    ops.flatMap((op) => {
      const cases = casesOf(op);
      // Provider calls take no token: the full set once, as anonymous.
      const full = op.access === 'provider' ? role === 'anonymous' : ADMITTED[op.access].includes(role);
      return full ? cases : guardSample(cases);
    });
  const failures = new Map<string, string[]>();
  const statuses = new Map<number, number>();
  let sent = 0;
  const run = async (c: Case) => {
    const answer = await send(world.baseUrl, c, user?.token);
    sent += 1;
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    for (const problem of problems(c, answer, foreign, world.providersConfigured)) {
      const key = `${c.operation.method.toUpperCase()} ${c.operation.path}: ${problem.replace(/: .*/, '')}`;
      failures.set(key, [...(failures.get(key) ?? []), c.label]);
    }
  };
  // Logging out ends the session the other calls use: it goes last.
  const last = (op: Operation) => op.path === '/api/user/logout';
  await pool(plan(operations.filter((op) => !last(op))), 6, run);
  await pool(plan(operations.filter(last)), 1, run);
  const report = [...failures].map(([key, labels]) => `${key} <- ${labels.slice(0, 6).join(' | ')}${labels.length > 6 ? ` (+${labels.length - 6})` : ''}`);
  return { report, sent, statuses };
}

function expectClean(role: Role, result: Awaited<ReturnType<typeof sweep>>): void {
  const { report, sent, statuses } = result;
  expect(sent).to.be.greaterThan(100);
  expect(report, `${report.length} kinds of failure in ${sent} requests as ${role}:\n  ${report.join('\n  ')}\n`).to.deep.equal([]);
  // A 429 is a fair answer but hides whatever the call would have done with the input: keep them rare.
  const histogram = JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)));
  expect(statuses.get(429) ?? 0, `answers by status: ${histogram}`).to.be.at.most(sent / 50);
}

describe('Fuzz: hostile input on every call of /api/openapi.json, for every role', function () {
  this.timeout(240_000);

  let operations: Operation[];
  const world: World = { baseUrl: '', providersConfigured: false, users: {}, bystander: '' };
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  before(async () => {
    world.baseUrl = await harness().baseUrl();
    const doc = await api().get('/api/openapi.json').expect(200);
    operations = operationsOf(doc.body);
    const [unverified, buyer, moderator, admin] = await Promise.all([
      loginAs('user', { verified: false }),
      loginAs('user'),
      loginAs('moderator'),
      loginAs('admin'),
    ]);
    world.users = { unverified, buyer, moderator, admin };
    // Another buyer whose e-mail must never reach anyone but staff.
    world.bystander = (await createUser({ email: uniqueEmail('bystander') })).email;
  });

  afterEach(() => {
    // The app runs in this process: a prototype key that got through would show here.
    const polluted = ['admin', 'role', 'isAdmin', 'a'].filter((key) => (({}) as Record<string, unknown>)[key] !== undefined);
    expect(polluted, 'Object.prototype was polluted').to.deep.equal([]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).to.deep.equal(prototypeBefore);
  });

  it('reads every operation from the served document', () => {
    expect(operations.length).to.be.greaterThan(40);
    expect(operations.map((op) => `${op.method} ${op.path}`)).to.include.members([
      'post /api/user/authenticate',
      'get /api/user/checkemail',
      'post /api/webhook/stripe',
    ]);
  });

  for (const role of ROLES) {
    it(`as ${role}: never a 5xx, always JSON { message, code }, never a token or another user's e-mail`, async () => {
      expectClean(role, await sweep(world, operations, role));
    });
  }

  // Social sign-in and the card, crypto and Korean providers answer 404 where they are not
  // configured, so their input handling is swept again with all of them on (local fakes).
  describe('with every social and payment provider configured', () => {
    const fakes = [new FakeGoogle(), new FakeNaver(), new FakeKakao(), new FakeStripe(), new FakeCoinPal(), new FakePayssion()] as const;
    const stops: Array<() => Promise<void>> = [];
    const configured: World = { ...world, providersConfigured: true };

    before(async () => {
      for (const fake of fakes) stops.push((await fake.start()).stop);
      const [google, naver, kakao, stripe, coinpal, payssion] = fakes;
      const { app } = harness().appWith({
        ...google.env,
        ...naver.env,
        ...kakao.env,
        ...stripe.env,
        ...coinpal.env,
        ...payssion.env,
      });
      const server = await listen(app, 0, '127.0.0.1');
      stops.push(server.close);
      Object.assign(configured, world, { baseUrl: server.url, providersConfigured: true });
      // The first sweep logged its users out last; these sessions are new.
      const [unverified, buyer, moderator, admin] = await Promise.all([
        loginAs('user', { verified: false, app }),
        loginAs('user', { app }),
        loginAs('moderator', { app }),
        loginAs('admin', { app }),
      ]);
      configured.users = { unverified, buyer, moderator, admin };
    });
    after(async () => {
      for (const stop of stops.reverse()) await stop();
    });

    for (const role of ['anonymous', 'buyer', 'admin'] as const) {
      it(`as ${role}: never a 5xx, garbage notifications answer 400, sign-in callbacks refuse garbage cleanly`, async () => {
        expectClean(role, await sweep(configured, operations, role));
      });
    }
  });
});
