import { expect } from 'chai';
import { freePort } from '@subshare/core';
import { createUser } from '../support/agent.js';
import { exited, spawnCli } from '../support/cli.js';
import { harness, testEnv } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 15: a catalog change made through one `subshare serve` is served by another process on
 * the same database within a second, in the API and in the server-rendered platform page (whose
 * rendered-page cache keys on the catalog version). Two real processes of the built CLI.
 */
describe('catalog editor across two serve processes', function () {
  this.timeout(120_000);

  type Shop = { child: ReturnType<typeof spawnCli>; url: string };

  async function serve(env: Record<string, string>): Promise<Shop> {
    const port = await freePort();
    const child = spawnCli(['serve'], { ...env, PORT: String(port), LOG_LEVEL: 'info' });
    await waitFor(() => child.output().includes('HTTP server listening'), { timeoutMs: 60_000, intervalMs: 100, what: `serve on ${port}: ${child.output()}` });
    return { child, url: `http://127.0.0.1:${port}` };
  }

  async function json(shop: Shop, route: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const response = await fetch(`${shop.url}${route}`, {
      method: init.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: await response.json() };
  }

  it('a price saved and a platform hidden through one process are served by the other within a second (API, pre-rendered page, home, sitemap)', async () => {
    // One configuration for both: the same database and token secret, as behind a load balancer.
    const env = testEnv(harness().db.url);
    const [a, b] = await Promise.all([serve(env), serve(env)]);
    try {
      const admin = await createUser({ role: 'admin' });
      const login = await json(a, '/api/user/authenticate', { method: 'POST', body: { email: admin.email, password: admin.password } });
      expect(login.status).to.equal(200);
      const token = login.body.token as string;

      const name = { en: `Two processes ${Date.now()}`, ko: '두 프로세스' };
      const created = await json(a, '/api/catalog/createplatform', {
        method: 'POST',
        token,
        body: {
          name,
          description: name,
          howItWorks: [name],
          faq: [],
          colorOne: '#112233',
          colorTwo: '#445566',
          logoBase: '/media/platforms/netflix.svg',
          logoCarousel: '/media/platforms/netflix.svg',
          category: 0,
          slotsCount: 4,
          needsInvitation: false,
          isEnabled: true,
          durations: [{ key: 'd', name: { en: '1 Month', ko: '1개월' }, months: 1, isEnabled: true }],
          types: [{ key: 't', name: { en: 'Standard', ko: '스탠다드' }, isEnabled: true }],
          prices: [{ durationKey: 'd', typeKey: 't', eur: { price: 900, salePrice: 411 }, krw: { price: 9000, salePrice: 6900 } }],
        },
      });
      expect(created.status).to.equal(200);
      const id = created.body.id as number;
      const salePriceOn = async (shop: Shop) => {
        const { status, body } = await json(shop, `/api/platform/getplatform?id=${id}&currency=EUR&languageId=1`);
        return status === 200
          ? (body.platform.prices[0].salePrice as Array<{ currencyId: number; price: number }>).find((p) => p.currencyId === 1)?.price
          : undefined;
      };
      const page = async (shop: Shop) => (await fetch(`${shop.url}/platform/${id}`, { headers: { cookie: 'currency=EUR' } })).text();

      // B serves the new platform (API and page) and has both cached.
      await waitFor(async () => (await salePriceOn(b)) === 4.11, { timeoutMs: 3_000, what: 'the new platform on B' });
      await waitFor(async () => (await page(b)).includes('4.11'), { timeoutMs: 3_000, what: "the new platform's page on B" });

      const saved = await json(a, '/api/catalog/updateplatform', {
        method: 'POST',
        token,
        body: {
          ...created.body,
          updatedAt: undefined,
          durations: created.body.durations.map(({ hasOrders: _hasOrders, ...d }: { hasOrders: boolean }) => d),
          types: created.body.types.map(({ hasOrders: _hasOrders, ...t }: { hasOrders: boolean }) => t),
          prices: [{ ...created.body.prices[0], eur: { price: 900, salePrice: 777 } }],
        },
      });
      expect(saved.status).to.equal(200);
      const savedAt = Date.now();
      expect(await salePriceOn(a), 'the writing process at once').to.equal(7.77);

      // The change is announced on commit (NOTIFY subshare_catalog); B forgets its copy when it hears it.
      await waitFor(async () => (await salePriceOn(b)) === 7.77, { timeoutMs: 1_500, intervalMs: 25, what: 'the new price in B’s API' });
      const apiAfter = Date.now() - savedAt;
      await waitFor(async () => (await page(b)).includes('7.77'), { timeoutMs: 1_500, intervalMs: 25, what: 'the new price on B’s pre-rendered page' });
      const pageAfter = Date.now() - savedAt;
      expect(apiAfter, 'ms until B’s API showed the price').to.be.below(1_500);
      expect(pageAfter, 'ms until B’s page showed the price').to.be.below(1_500);
      expect(await page(b)).to.not.include('4.11');

      // Hidden through A: gone from B's API, home and sitemap within a second too.
      const sitemap = async (shop: Shop) => (await fetch(`${shop.url}/sitemap.xml`)).text();
      expect(await sitemap(b)).to.include(`/platform/${id}<`);
      const hidden = await json(a, '/api/catalog/setenabled', { method: 'POST', token, body: { id, isEnabled: false, version: saved.body.version } });
      expect(hidden.status).to.equal(200);
      const hiddenAt = Date.now();
      await waitFor(async () => (await json(b, `/api/platform/getplatform?id=${id}`)).status === 404, {
        timeoutMs: 1_500,
        intervalMs: 25,
        what: 'the platform hidden on B',
      });
      await waitFor(async () => !(await sitemap(b)).includes(`/platform/${id}<`), {
        timeoutMs: 1_500,
        intervalMs: 25,
        what: 'the platform out of B’s sitemap',
      });
      const home = await json(b, '/api/main/home?languageId=1&currency=EUR');
      expect(home.body.platforms.map((p: { id: number }) => p.id)).to.not.include(id);
      expect(Date.now() - hiddenAt, 'ms until B hid it everywhere').to.be.below(1_500);
    } finally {
      for (const shop of [a, b]) shop.child.kill('SIGTERM');
      expect(await Promise.all([a, b].map((shop) => exited(shop.child)))).to.deep.equal([0, 0]);
    }
  });
});
