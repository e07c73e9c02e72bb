import { expect } from 'chai';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { listen } from '@subshare/http';
import { loginAs } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { onFreePort } from '../support/ports.js';
import { loggedInPage, openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

/** Whether the element is entirely inside the window (not scrolled past, not below the fold). */
const inView = (page: Page, testId: string) =>
  page.$eval(`[data-testid="${testId}"]`, (element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

/** Scrolls to the bottom of the page and answers how far down that is. */
const scrollToBottom = (page: Page) =>
  page.evaluate(async () => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
    return window.scrollY;
  });

/**
 * Where a page opens (issue 14): every route change, and every return from a payment provider,
 * starts at the top, on a phone too; the browser's back and forward may bring a position back.
 */
describe('browser: scroll position on a phone', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let server: { close(): Promise<void> } | undefined;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    // The demo checkout sends the browser back to PUBLIC_URL: a server of its own whose public URL is its address.
    const started = await onFreePort((port) => listen(harness().appWith({ PUBLIC_URL: `http://127.0.0.1:${port}` }).app, port, '127.0.0.1'));
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const outcome of ['pay', 'cancel'] as const) {
    it(`the result page after the demo provider (${outcome}) opens at the top, its heading on screen`, async () => {
      const buyer = await loginAs('user');
      const page = await loggedInPage(browser, baseUrl, buyer, { viewport: PHONE });
      // The platform page, opened directly and scrolled down to its button.
      await page.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"]');
      expect(await scrollToBottom(page)).to.be.greaterThan(300);
      await page.click('[data-testid="platform-go-to-payment"]');
      await page.waitForSelector('[data-testid="page-payment"][data-status="ready"]');
      // A route change starts at the top.
      expect(await scrollY(page)).to.equal(0);
      expect(await scrollToBottom(page)).to.be.greaterThan(100);

      await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="payment-pay"]')]);
      await page.waitForSelector(`[data-testid="demo-${outcome}"]`);
      await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click(`[data-testid="demo-${outcome}"]`)]);
      await page.waitForSelector(`[data-testid="payment-result"][data-success="${outcome === 'pay'}"]`);
      expect(await scrollY(page)).to.equal(0);
      expect(await inView(page, 'payment-result-title')).to.equal(true);
      await page.close();
    });
  }

  it('a link from a scrolled page opens the next page at the top; back brings the position back', async () => {
    const page = await browser.newPage(PHONE);
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="platform-card"]');
    const bottom = await scrollToBottom(page);
    expect(bottom).to.be.greaterThan(300);
    await page.click('[data-testid="footer-link-support"]');
    await page.waitForSelector('[data-testid="page-support"]');
    expect(await scrollY(page)).to.equal(0);
    await page.goBack();
    await page.waitForSelector('[data-testid="platform-card"]');
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 2, {}, bottom);
    await page.close();
  });

  it('a visitor who scrolls the server page on a slow phone before it is hydrated stays where they scrolled', async () => {
    const page = await browser.newPage(PHONE);
    try {
      await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
      const cdp = await page.createCDPSession();
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      // A slow network: the scripts arrive only after the visitor has scrolled. Without holding them,
      // a fast enough machine hydrated the page before the scroll and the test proved nothing.
      const held: HTTPRequest[] = [];
      let holding = true;
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        if (holding && request.resourceType() === 'script') held.push(request);
        else void request.continue();
      });
      const navigation = page.goto(`${baseUrl}/platform/1`, { waitUntil: 'load' });
      await page.waitForSelector('[data-testid="platform-go-to-payment"]', { visible: true });
      const { y, hydrated } = await page.evaluate(() => {
        window.scrollTo(0, 400);
        return { y: window.scrollY, hydrated: document.documentElement.hasAttribute('data-hydrated') };
      });
      expect(hydrated, 'scrolled before hydration').to.equal(false);
      expect(y).to.be.greaterThan(200);
      holding = false;
      await Promise.all(held.map((request) => request.continue()));
      await navigation;
      await page.waitForSelector('html[data-hydrated]', { timeout: 60_000 });
      // Two frames after the commit: where a restoration would have moved the page.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await scrollY(page)).to.equal(y);
    } finally {
      await page.close();
    }
  });
});
