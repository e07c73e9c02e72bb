import { expect } from 'chai';
import { apiGet, configureApi, prefetch } from '../../packages/web/src/services/api/client.js';

/**
 * GETs asked ahead (services/api/client.ts `prefetch`): the panel and the admin area ask their
 * first data beside their chunks, and the saga's same GET takes that answer instead of asking
 * again, once, only with the same token, and not once it is old. The server is a stand-in fetch
 * that counts what it is asked.
 */
describe('web: GETs asked ahead of the page', () => {
  const realFetch = globalThis.fetch;
  const realNow = Date.now;
  let asked: Array<{ url: string; authorization: string | null }>;
  let token: string | null;
  let now = 0;

  beforeEach(() => {
    asked = [];
    token = 'token-a';
    // Time only moves forward: what an earlier test asked ahead is long past for the next one.
    now += 1_000_000;
    Date.now = () => now;
    configureApi({ getToken: () => token });
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      asked.push({ url: String(input), authorization: headers.Authorization ?? null });
      return new Response(JSON.stringify({ n: asked.length }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;
  });

  afterEach(() => {
    globalThis.fetch = realFetch;
    Date.now = realNow;
    configureApi({});
  });

  const panel = (id: number) => apiGet<{ n: number }>('/api/user/getuserpanel', { id, languageId: 1 }, { auth: true });

  it('the same GET soon after takes the answer asked ahead, once', async () => {
    prefetch(() => void panel(7));
    expect(asked).to.deep.equal([{ url: '/api/user/getuserpanel?id=7&languageId=1', authorization: 'Bearer token-a' }]);
    // Asked ahead twice (a retried render): still one request.
    prefetch(() => void panel(7));
    expect(asked).to.have.length(1);

    now += 2_000;
    expect(await panel(7)).to.deep.equal({ n: 1 });
    expect(asked).to.have.length(1);
    // Taken once: the next load asks the server again.
    expect(await panel(7)).to.deep.equal({ n: 2 });
    expect(asked).to.have.length(2);
  });

  it('asked ahead again after the page took the answer (at start, then when its route renders): no second request', async () => {
    prefetch(() => void panel(7));
    expect(await panel(7)).to.deep.equal({ n: 1 });
    prefetch(() => void panel(7));
    expect(asked).to.have.length(1);
    // The page's own next load (a refresh) asks the server.
    expect(await panel(7)).to.deep.equal({ n: 2 });
    expect(asked).to.have.length(2);
  });

  it('another GET, another token or an old answer asks the server', async () => {
    prefetch(() => void panel(7));
    expect(await panel(8)).to.deep.equal({ n: 2 });

    // Logged in as someone else meanwhile: never the other session's answer.
    token = 'token-b';
    expect(await panel(7)).to.deep.equal({ n: 3 });
    expect(asked[2].authorization).to.equal('Bearer token-b');

    // Asked ahead, but the page took longer than 15 s: asked again, not an old answer.
    prefetch(() => void panel(9));
    now += 15_001;
    expect(await panel(9)).to.deep.equal({ n: 5 });
    expect(asked.map((entry) => entry.url)).to.deep.equal([
      '/api/user/getuserpanel?id=7&languageId=1',
      '/api/user/getuserpanel?id=8&languageId=1',
      '/api/user/getuserpanel?id=7&languageId=1',
      '/api/user/getuserpanel?id=9&languageId=1',
      '/api/user/getuserpanel?id=9&languageId=1',
    ]);
  });

  it('a failure asked ahead is the taker’s to see, and nothing is left unhandled', async () => {
    globalThis.fetch = (async () =>
      new Response(JSON.stringify({ message: 'No.', code: 'forbidden' }), { status: 403, headers: { 'Content-Type': 'application/json' } })) as typeof fetch;
    prefetch(() => void panel(70));
    const error = await panel(70).catch((caught: unknown) => caught);
    expect(error).to.have.property('status', 403);
    expect(error).to.have.property('code', 'forbidden');
  });
});
