import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { loginAs, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { loggedInPage, openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { buyer as newBuyer, createOrder, createPlatform, markPaidQuietly } from '../support/shop.js';
import { ensureWebBuilt } from '../support/web-build.js';

const ADMIN = 2;

/** The admin area on a 390 px phone: every page fits the screen; the wide tables scroll inside their own box. */
describe('browser: the admin area on a phone', function () {
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

  /** How wide the document is: wider than the window means the whole page scrolls sideways. */
  const documentWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

  it('the dashboard, the orders and a user page are no wider than the phone (390 px)', async () => {
    // A paid order, so the orders list and the user page have a row, and the chart a bar.
    const platform = await createPlatform();
    const buyer = await newBuyer();
    const orderId = await createOrder(buyer, platform);
    await markPaidQuietly(orderId);

    const page = await loggedInPage(browser, baseUrl, admin, { role: ADMIN, viewport: PHONE });
    await page.goto(`${baseUrl}/jve`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="admin-home"][data-status="loaded"]');
    await page.waitForSelector('[data-testid="admin-revenue-chart"]');
    expect(await page.evaluate(() => window.innerWidth)).to.equal(PHONE.width);
    expect(await documentWidth(page), 'dashboard').to.be.at.most(PHONE.width);
    // The chart's 30 days fit the phone: its box does not scroll either.
    expect(await page.$eval('[data-testid="admin-revenue-chart"]', (chart) => chart.parentElement!.scrollWidth <= chart.parentElement!.clientWidth)).to.equal(
      true,
    );

    await page.goto(`${baseUrl}/jve/orders/6`, { waitUntil: 'networkidle0' });
    await page.waitForSelector(`[data-testid="admin-orders"][data-status="loaded"] [data-testid="admin-order-row"][data-order-id="${orderId}"]`);
    expect(await documentWidth(page), 'orders').to.be.at.most(PHONE.width);

    await page.goto(`${baseUrl}/jve/user/${buyer.id}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="admin-user"][data-status="loaded"]');
    expect(await documentWidth(page), 'user page').to.be.at.most(PHONE.width);
    await page.close();
  });
});
