import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { loginAs, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { buyer as newBuyer, createPlatform, markPaidQuietly, orders, type TestPlatform } from '../support/shop.js';
import { ensureWebBuilt } from '../support/web-build.js';

const ADMIN = 2;

interface Names {
  platform: string;
  type: string;
  duration: string;
}

/**
 * An order keeps what it bought named in its buyer's language; the admin area reads every order
 * in the admin's language (issue 14): a Korean buyer's order in English for an English admin, an
 * English buyer's in Korean for a Korean one, in the orders list, the search by id and the user page.
 */
describe('browser: the admin area names orders in the admin language', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let admin: TestUser;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
    admin = await loginAs('admin');
  });
  after(() => browser?.close());

  /** The catalog's names of the test platform's plan in a language (as the storefront shows them). */
  async function catalogNames(platform: TestPlatform, languageId: 1 | 2): Promise<Names> {
    const response = await fetch(`${baseUrl}/api/platform/getplatform?id=${platform.id}&languageId=${languageId}`);
    const body = (await response.json()) as {
      platform: { name: string; type: Array<{ id: number; name: string }>; duration: Array<{ id: number; name: string }> };
    };
    return {
      platform: body.platform.name,
      type: body.platform.type.find((type) => type.id === platform.typeId)!.name,
      duration: body.platform.duration.find((duration) => duration.id === platform.durationId)!.name,
    };
  }

  /** A paid order (waiting, state 6) of a buyer who ordered in `languageId`. */
  async function paidOrder(platform: TestPlatform, languageId: 1 | 2) {
    const buyer = await newBuyer({ languageId });
    const order = await orders().createOrder(
      buyer,
      { platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId, quantity: 1, currency: 'EUR' },
      'EUR',
    );
    await markPaidQuietly(order.id);
    return { buyer, orderId: order.id };
  }

  const clean = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  const cell = (page: Page, row: string, testId: string) => page.$eval(`${row} [data-testid="${testId}"]`, (element) => element.textContent).then(clean);

  async function rowNames(page: Page, orderId: number): Promise<Names> {
    const row = `[data-testid="admin-order-row"][data-order-id="${orderId}"]`;
    await page.waitForSelector(row);
    return {
      platform: await cell(page, row, 'admin-order-platform'),
      type: await cell(page, row, 'admin-order-type'),
      duration: await cell(page, row, 'admin-order-duration'),
    };
  }

  async function userPageNames(page: Page, buyerId: number): Promise<Names> {
    await page.goto(`${baseUrl}/jve/user/${buyerId}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="admin-user"][data-status="loaded"]');
    const item = '[data-testid="admin-user-incomplete"] li';
    await page.waitForSelector(item);
    return {
      platform: await page.$eval(`${item} h4`, (heading) => heading.textContent).then(clean),
      type: await cell(page, item, 'admin-item-type'),
      duration: await cell(page, item, 'admin-item-duration'),
    };
  }

  for (const [admins, buyers] of [
    ['en', 'ko'],
    ['ko', 'en'],
  ] as const) {
    it(`a buyer's order in ${buyers === 'ko' ? 'Korean' : 'English'} reads in ${admins === 'en' ? 'English' : 'Korean'} for an admin working in it`, async () => {
      const platform = await createPlatform();
      const adminLanguage = admins === 'en' ? 1 : 2;
      const buyerLanguage = buyers === 'en' ? 1 : 2;
      const { buyer, orderId } = await paidOrder(platform, buyerLanguage);
      const wanted = await catalogNames(platform, adminLanguage);
      const buyerNames = await catalogNames(platform, buyerLanguage);
      // The order keeps the buyer's names; the two languages differ, so the test tells them apart.
      const snapshot = await harness().knex('order_items').where({ order_id: orderId }).first('platform_name', 'type_name', 'duration_name');
      expect(snapshot).to.deep.equal({ platform_name: buyerNames.platform, type_name: buyerNames.type, duration_name: buyerNames.duration });
      expect(wanted.platform).to.not.equal(buyerNames.platform);
      expect(wanted.type).to.not.equal(buyerNames.type);

      const page = await loggedInPage(browser, baseUrl, admin, { role: ADMIN, language: admins });
      await page.goto(`${baseUrl}/jve/orders/6`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="admin-orders"][data-status="loaded"]');
      expect(await rowNames(page, orderId)).to.deep.equal(wanted);

      // The search by order id reads the one order the same way.
      await page.type('[data-testid="admin-orders-search-input"]', String(orderId));
      await page.click('[data-testid="admin-orders-search-submit"]');
      await page.waitForSelector(`[data-testid="admin-orders"][data-status="loaded"][data-search="${orderId}"]`);
      expect(await rowNames(page, orderId)).to.deep.equal(wanted);

      expect(await userPageNames(page, buyer.id)).to.deep.equal(wanted);
      await page.close();
    });
  }
});
