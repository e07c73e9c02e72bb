/**
 * The catalog is served from memory, and a change reaches every process: the one that made it
 * at once (invalidate / markChanged), any other within a second (the catalog version in the
 * database, moved by triggers on every catalog table). Time is driven by the test clock.
 */
import { expect } from 'chai';
import request from 'supertest';
import { CATALOG_CHANNEL, CATALOG_VERSION_CHECK_MS, CatalogService, DatabaseEvents } from '@subshare/core';
import { harness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

interface WirePrice {
  currencyId: number;
  price: number;
}
interface WirePlatform {
  id: number;
  name: string;
  duration: Array<{ id: number; isEnable: boolean }>;
  type: Array<{ id: number; isEnable: boolean }>;
  prices: Array<{ durationId: number; typeId: number; salePrice: WirePrice[] }>;
}

const PLATFORM_ID = 3;

async function version(): Promise<number> {
  const row = await harness().knex('catalog_state').where({ id: 1 }).first('version');
  return Number(row.version);
}

async function salePriceEur(app: Parameters<typeof request>[0], durationId: number, typeId: number): Promise<number> {
  const res = await request(app).get('/api/platform/getplatform').query({ id: PLATFORM_ID, languageId: 1 }).expect(200);
  const platform = res.body.platform as WirePlatform;
  return platform.prices.find((p) => p.durationId === durationId && p.typeId === typeId)!.salePrice.find((p) => p.currencyId === 1)!.price;
}

describe('catalog cache: served from memory, invalidated when the catalog changes', () => {
  let durationId: number;
  let typeId: number;
  let original: { sale_price_minor: number; price_minor: number };

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    const res = await request(harness().app).get('/api/platform/getplatform').query({ id: PLATFORM_ID, languageId: 1 }).expect(200);
    const platform = res.body.platform as WirePlatform;
    durationId = platform.duration.find((d) => d.isEnable)!.id;
    typeId = platform.type.find((t) => t.isEnable)!.id;
    original = await harness()
      .knex('platform_prices')
      .where({ platform_id: PLATFORM_ID, duration_id: durationId, plan_type_id: typeId, currency: 'EUR' })
      .first('sale_price_minor', 'price_minor');
    // The catalog listens for announced changes from its first read on.
    await waitFor(() => harness().container.get(DatabaseEvents).listening(CATALOG_CHANNEL), { what: 'the catalog listening' });
  });

  after(async () => {
    await harness()
      .knex('platform_prices')
      .where({ platform_id: PLATFORM_ID, duration_id: durationId, plan_type_id: typeId, currency: 'EUR' })
      .update({ sale_price_minor: original.sale_price_minor });
    harness().container.get(CatalogService).invalidate();
  });

  async function setSalePrice(minor: number): Promise<void> {
    await harness()
      .knex('platform_prices')
      .where({ platform_id: PLATFORM_ID, duration_id: durationId, plan_type_id: typeId, currency: 'EUR' })
      .update({ sale_price_minor: Math.min(minor, original.price_minor) });
  }

  /**
   * Makes a change and waits until this process has heard it announced: the catalog, listening
   * on the same connection before the test, has then forgotten its copy too (one dispatch).
   */
  async function setSalePriceHeard(minor: number): Promise<void> {
    const events = harness().container.get(DatabaseEvents);
    let heard!: () => void;
    const announcement = new Promise<void>((resolve) => (heard = resolve));
    const stop = await events.listen(CATALOG_CHANNEL, () => heard());
    try {
      await setSalePrice(minor);
      await announcement;
    } finally {
      stop();
    }
  }

  it('moves the catalog version and the platform updated_at with every write to a catalog table', async () => {
    const before = await version();
    const [{ updated_at: stampedBefore }] = await harness().knex('platforms').where({ id: PLATFORM_ID }).select('updated_at');
    await setSalePrice(original.sale_price_minor - 1);
    expect(await version()).to.be.above(before);
    const [{ updated_at: stampedAfter }] = await harness().knex('platforms').where({ id: PLATFORM_ID }).select('updated_at');
    expect((stampedAfter as Date).getTime()).to.be.above((stampedBefore as Date).getTime());
    const afterPrice = await version();
    await harness().knex('platform_faq').where({ platform_id: PLATFORM_ID, position: 999 }).delete(); // deletes nothing: still a write statement
    expect(await version()).to.be.above(afterPrice);
  });

  it('serves reads from memory: a change is not seen until the catalog is invalidated or its version checked', async () => {
    const catalog = harness().container.get(CatalogService);
    catalog.invalidate();
    await setSalePriceHeard(original.sale_price_minor - 2);
    const fresh = await salePriceEur(harness().app, durationId, typeId);
    expect(Math.round(fresh * 100)).to.equal(original.sale_price_minor - 2);

    // Same process, same second: from memory, no query for the platforms.
    const queries: string[] = [];
    const onQuery = (query: { sql: string }) => queries.push(query.sql);
    harness().knex.on('query', onQuery);
    try {
      await salePriceEur(harness().app, durationId, typeId);
      await salePriceEur(harness().app, durationId, typeId);
    } finally {
      harness().knex.off('query', onQuery);
    }
    expect(queries.filter((sql) => /from "platforms"/.test(sql))).to.deep.equal([]);
  });

  it('shows a change on the next request of the process that made it (markChanged)', async () => {
    const catalog = harness().container.get(CatalogService);
    await salePriceEur(harness().app, durationId, typeId); // warm
    await setSalePrice(original.sale_price_minor - 3);
    await catalog.markChanged();
    expect(Math.round((await salePriceEur(harness().app, durationId, typeId)) * 100)).to.equal(original.sale_price_minor - 3);
  });

  it('shows a change made by another process within a second, in the API and in the pre-rendered pages', async () => {
    // A second container on the same database plays the other process (another `subshare serve`).
    const other = harness().appWith({});
    const page = async () => (await request(other.app).get(`/platform/${PLATFORM_ID}`).query({ lang: 'en', currency: 'EUR' }).expect(200)).text;
    await salePriceEur(other.app, durationId, typeId); // fills its memory
    await page();

    const catalog = harness().container.get(CatalogService);
    await setSalePrice(original.sale_price_minor - 4);
    await catalog.markChanged();
    expect(Math.round((await salePriceEur(harness().app, durationId, typeId)) * 100), 'the writer sees it at once').to.equal(original.sale_price_minor - 4);

    // The other process trusts its memory for at most a second; its next request after that reloads.
    harness().clock.advance(CATALOG_VERSION_CHECK_MS + 1);
    expect(Math.round((await salePriceEur(other.app, durationId, typeId)) * 100), 'the other process sees it').to.equal(original.sale_price_minor - 4);
    expect(await page()).to.contain(`€${((original.sale_price_minor - 4) / 100).toFixed(2)}`);
  });

  it('notices a change written straight into the database (no core call at all)', async () => {
    const other = harness().appWith({});
    await salePriceEur(other.app, durationId, typeId);
    await setSalePrice(original.sale_price_minor - 5);
    harness().clock.advance(CATALOG_VERSION_CHECK_MS + 1);
    expect(Math.round((await salePriceEur(other.app, durationId, typeId)) * 100)).to.equal(original.sale_price_minor - 5);
  });

  it('announces a change to the other processes (NOTIFY on commit): they serve it at once, with no version check due', async () => {
    const other = harness().appWith({});
    await salePriceEur(other.app, durationId, typeId); // fills its memory and starts its listening
    await waitFor(() => other.container.get(DatabaseEvents).listening(CATALOG_CHANNEL), { what: 'the other process listening' });
    await salePriceEur(other.app, durationId, typeId);
    // The test clock stands still: without the announcement the other process would trust its memory for ever.
    await setSalePrice(original.sale_price_minor - 8);
    await waitFor(async () => Math.round((await salePriceEur(other.app, durationId, typeId)) * 100) === original.sale_price_minor - 8, {
      timeoutMs: 1_000,
      intervalMs: 20,
      what: 'the new price in the other process',
    });
    // A rolled-back change announces nothing.
    await harness()
      .knex.transaction(async (trx) => {
        await trx('platform_prices')
          .where({ platform_id: PLATFORM_ID, duration_id: durationId, plan_type_id: typeId, currency: 'EUR' })
          .update({ sale_price_minor: 1 });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(Math.round((await salePriceEur(other.app, durationId, typeId)) * 100)).to.equal(original.sale_price_minor - 8);
  });

  it('pre-rendered pages follow the catalog: the platform page shows the new price', async () => {
    const catalog = harness().container.get(CatalogService);
    const page = async () => (await request(harness().app).get(`/platform/${PLATFORM_ID}`).query({ lang: 'en', currency: 'EUR' }).expect(200)).text;
    await setSalePrice(original.sale_price_minor - 6);
    catalog.invalidate();
    const before = await page();
    await setSalePrice(original.sale_price_minor - 7);
    catalog.invalidate();
    const after = await page();
    expect(after).to.not.equal(before);
    const sale = ((original.sale_price_minor - 7) / 100).toFixed(2);
    expect(after).to.contain(`€${sale}`);
  });
});
