import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { harness } from '../support/harness.js';
import { openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

/** A visitor opens the shop's home page in Chromium and sees the platform cards. */
describe('browser: Home', function () {
  this.timeout(60_000);
  let browser: BrowserSession;
  let baseUrl: string;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
  });
  after(() => browser?.close());

  async function cards(page: Page) {
    await page.waitForSelector('[data-testid="platform-card"]');
    return page.$$eval('[data-testid="platform-card"]', (elements) =>
      elements.map((element) => ({
        id: Number(element.getAttribute('data-platform-id')),
        name: element.querySelector('[data-testid="platform-card-name"]')?.textContent ?? '',
        price: element.querySelector('[data-testid="platform-card-price"]')?.textContent ?? '',
        // the logo sits on the platform's first colour
        background: getComputedStyle((element.querySelector('[data-testid="platform-card-logo"]') as Element).parentElement as Element).backgroundColor,
      })),
    );
  }

  it('shows one card per platform with its logo colour and the minimum monthly price in EUR', async () => {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    const shown = await cards(page);
    const platforms = await harness().knex('platforms').where({ is_enabled: true }).orderBy(['sort_order', 'id']).select('id', 'color_one');
    expect(shown.map((card) => card.id)).to.deep.equal(platforms.map((p: { id: number }) => p.id));
    for (const card of shown) expect(card.price).to.match(/^€\d+\.\d{2}\/month$/);
    const hex = platforms[0].color_one as string;
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    expect(shown[0].background).to.equal(`rgb(${r}, ${g}, ${b})`);
    expect(await page.$eval('html', (html) => html.lang)).to.equal('en');
    expect(await page.$('[data-testid="nav-login"]')).to.not.equal(null);
    expect(await page.$('[data-testid="footer"]')).to.not.equal(null);
    await page.close();
  });

  it('opens the platform page from a card', async () => {
    const page = await browser.newPage();
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    const [first] = await cards(page);
    await page.click(`[data-testid="platform-card"][data-platform-id="${first.id}"] [data-testid="platform-card-details"]`);
    await page.waitForFunction((id) => location.pathname === `/platform/${id}`, {}, first.id);
    await page.close();
  });

  it('on a phone in Korea, shows Korean texts and KRW prices without decimals', async () => {
    const page = await browser.newPage(PHONE);
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'ko-KR,ko;q=0.9' });
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    const shown = await cards(page);
    expect(await page.$eval('html', (html) => html.lang)).to.equal('ko');
    expect(shown[0].name).to.match(/[\uac00-\ud7a3]/);
    for (const card of shown)
      expect(card.price)
        .to.match(/^₩[\d,]+/)
        .and.not.match(/\.\d/);
    await page.close();
  });

  it('does not download admin code on the storefront', async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    const bodies = await Promise.all(scripts.map(async (url) => (await fetch(url)).text()));
    expect(bodies.join('\n')).to.not.contain('admin-create-subscription');
    await page.close();
  });
});
