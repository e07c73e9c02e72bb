import { expect } from 'chai';
import type { HTTPResponse, Page } from 'puppeteer-core';
import { harness } from '../support/harness.js';
import { chooseCurrency, openBrowser, PHONE, shownCurrency, type BrowserSession } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

const HANGUL = /[\uac00-\ud7a3]/;
const EUR_PRICE = /^€\d{1,3}(,\d{3})*\.\d{2}/;
const KRW_PRICE = /^₩\d{1,3}(,\d{3})*/;

interface CatalogAnswer {
  url: string;
  currencyCode: string;
}

/** A visitor switches the language (dialog, reload, stored) and the currency (EUR ↔ KRW, answered by the server). */
describe('browser: storefront language and currency', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
  });
  after(() => browser?.close());

  /** Records every answer of the catalog calls (home and getplatform) with the currency the server chose. */
  function recordCatalog(page: Page): CatalogAnswer[] {
    const answers: CatalogAnswer[] = [];
    page.on('response', (response: HTTPResponse) => {
      const url = response.url();
      if (!url.includes('/api/main/home') && !url.includes('/api/platform/getplatform')) return;
      void response
        .json()
        .then((body: { currencyCode: string }) => answers.push({ url, currencyCode: body.currencyCode }))
        .catch(() => undefined);
    });
    return answers;
  }

  const cardPrices = (page: Page) =>
    page.$$eval('[data-testid="platform-card-price"]', (elements) => elements.map((element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim()));
  const text = (page: Page, testId: string) => page.$eval(`[data-testid="${testId}"]`, (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim());

  async function waitForAnswer(answers: CatalogAnswer[], predicate: (answer: CatalogAnswer) => boolean) {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const found = answers.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no catalog answer matched; got ${JSON.stringify(answers)}`);
  }

  it('switches to Korean in the dialog: stored, the page reloads in Korean, catalog texts too', async () => {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="platform-card"]');
    expect(await text(page, 'language-toggle')).to.equal('EN');
    expect(await page.$eval('html', (html) => html.lang)).to.equal('en');

    await page.click('[data-testid="language-toggle"]');
    await page.waitForSelector('[data-testid="language-dialog"]', { visible: true });
    expect(await page.$$eval('[data-testid^="language-option-"]', (buttons) => buttons.map((button) => button.textContent))).to.deep.equal([
      'English',
      'Korean',
    ]);
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('[data-testid="language-option-ko"]')]);

    await page.waitForSelector('[data-testid="platform-card"]');
    expect(await page.evaluate(() => localStorage.getItem('subshare.languageId'))).to.equal('2');
    expect(await page.$eval('html', (html) => html.lang)).to.equal('ko');
    expect(await text(page, 'language-toggle')).to.equal('KO');
    expect(await text(page, 'home-slogan')).to.match(HANGUL);
    expect(await text(page, 'platform-card-name')).to.match(HANGUL);
    // The one-year display cookie lets the server pre-render in the chosen language.
    expect((await page.cookies()).find((cookie) => cookie.name === 'subshare_lang')?.value).to.equal('2');

    // A later visit keeps Korean, whatever the browser says; the platform page asks in Korean.
    const requests: string[] = [];
    page.on('request', (request) => void requests.push(request.url()));
    await page.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"]');
    expect(await text(page, 'platform-description')).to.match(HANGUL);
    expect(await text(page, 'platform-go-to-payment')).to.equal('결제하기');
    // The server rendered it in Korean (the display cookie) with its data: nothing is asked again.
    expect(requests.filter((url) => url.includes('/api/platform/getplatform'))).to.deep.equal([]);
    await page.close();
  });

  it('switches EUR → KRW → EUR with the currency chooser: the server answers in it, prices follow, the choice is stored', async () => {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
    const answers = recordCatalog(page);
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="platform-card"]');
    expect(await shownCurrency(page)).to.equal('EUR');
    for (const price of await cardPrices(page)) expect(price).to.match(EUR_PRICE);
    // No choice yet: the server decided (EUR for this visitor) and rendered the page with its catalog: no request.
    expect(answers).to.deep.equal([]);

    answers.length = 0;
    await chooseCurrency(page, 'KRW');
    const krwHome = await waitForAnswer(answers, (answer) => answer.url.includes('/api/main/home'));
    expect(krwHome.url).to.match(/[?&]currency=KRW(&|$)/);
    expect(krwHome.currencyCode).to.equal('KRW');
    await page.waitForFunction(() => document.querySelector('[data-testid="platform-card-price"]')?.textContent?.includes('₩'));
    for (const price of await cardPrices(page)) {
      expect(price).to.match(KRW_PRICE);
      expect(price).to.not.match(/\.\d/);
    }
    expect(await page.evaluate(() => localStorage.getItem('subshare.currency'))).to.equal('KRW');
    expect((await page.cookies()).find((cookie) => cookie.name === 'subshare_currency')?.value).to.equal('KRW');

    // Stored (and its display cookie): the next visit is rendered by the server in KRW, with nothing asked again.
    answers.length = 0;
    await page.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"][data-currency="KRW"]');
    expect(answers).to.deep.equal([]);
    expect(await text(page, 'platform-sale-price')).to.match(/^₩\d{1,3}(,\d{3})*$/);
    expect(await text(page, 'platform-monthly-price')).to.match(/^₩\d{1,3}(,\d{3})*\/month$/);

    // A changed option stays chosen when the currency changes on the platform page.
    await page.click('[data-testid="duration-option"][data-option-id="3"]');
    const krwSale = await text(page, 'platform-sale-price');
    answers.length = 0;
    await chooseCurrency(page, 'EUR');
    const eurPlatform = await waitForAnswer(answers, (answer) => answer.url.includes('/api/platform/getplatform'));
    expect(eurPlatform.url).to.match(/[?&]currency=EUR(&|$)/);
    expect(eurPlatform.currencyCode).to.equal('EUR');
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"][data-currency="EUR"]');
    expect(await text(page, 'platform-sale-price')).to.match(/^€\d+\.\d{2}$/);
    expect(await text(page, 'platform-sale-price')).to.not.equal(krwSale);
    expect(await page.$eval('[data-testid="duration-option"][data-selected="true"]', (option) => option.getAttribute('data-option-id'))).to.equal('3');
    expect(await page.evaluate(() => localStorage.getItem('subshare.currency'))).to.equal('EUR');
    await page.close();
  });

  it('a Korean visitor on a phone starts in Korean and KRW (as the server chose) and can switch to EUR', async () => {
    const page = await browser.newPage(PHONE);
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'ko-KR,ko;q=0.9' });
    const answers = recordCatalog(page);
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="platform-card"]');
    expect(await page.evaluate(() => localStorage.getItem('subshare.languageId'))).to.equal('2');
    // No currency chosen yet: nothing stored, the server's choice shown.
    expect(await page.evaluate(() => localStorage.getItem('subshare.currency'))).to.equal(null);
    expect(await shownCurrency(page)).to.equal('KRW');
    for (const price of await cardPrices(page)) expect(price).to.match(KRW_PRICE);

    answers.length = 0;
    await chooseCurrency(page, 'EUR');
    const eurHome = await waitForAnswer(answers, (answer) => answer.url.includes('/api/main/home'));
    expect(eurHome.currencyCode).to.equal('EUR');
    await page.waitForFunction(() => document.querySelector('[data-testid="platform-card-price"]')?.textContent?.includes('€'));
    for (const price of await cardPrices(page)) expect(price).to.match(EUR_PRICE);
    // Korean texts stay; only the currency changed.
    expect(await text(page, 'home-slogan')).to.match(HANGUL);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).to.equal(true);
    await page.close();
  });

  it('follows ?lang= and ?currency= of the address (the pre-rendered Korean URLs), and a later choice wins over them', async () => {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
    const answers = recordCatalog(page);
    await page.goto(`${baseUrl}/platform/1?lang=ko&currency=KRW`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"]');
    expect(await page.$eval('html', (html) => html.lang)).to.equal('ko');
    expect(await text(page, 'platform-description')).to.match(HANGUL);
    expect(await text(page, 'platform-sale-price')).to.match(/^₩/);
    // Rendered by the server in Korean with its data: not asked again.
    expect(answers.filter((answer) => answer.url.includes('/api/platform/getplatform'))).to.deep.equal([]);
    expect(await page.evaluate(() => [localStorage.getItem('subshare.languageId'), localStorage.getItem('subshare.currency')])).to.deep.equal(['2', 'KRW']);

    // Choosing English in the dialog reloads without ?lang=, so the choice sticks.
    await page.click('[data-testid="language-toggle"]');
    await page.waitForSelector('[data-testid="language-dialog"]', { visible: true });
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('[data-testid="language-option-en"]')]);
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"]');
    expect(new URL(page.url()).searchParams.has('lang')).to.equal(false);
    expect(await page.$eval('html', (html) => html.lang)).to.equal('en');
    expect(await text(page, 'platform-go-to-payment')).to.equal('Go to payment');

    // Switching the currency drops ?currency= from the address.
    await chooseCurrency(page, 'EUR');
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"][data-currency="EUR"]');
    expect(new URL(page.url()).searchParams.has('currency')).to.equal(false);
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"][data-currency="EUR"]');
    await page.close();
  });

  it('replaces a pre-rendered page in one step: one catalog request, no loading spinner in between', async () => {
    for (const [path, ready] of [
      ['/platform/2', '[data-testid="page-platform"][data-status="loaded"]'],
      ['/', '[data-testid="platform-card"]'],
      ['/refundpolicy', '[data-testid="page-refundpolicy"]'],
    ] as const) {
      const page = await browser.newPage();
      await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
      const catalogCalls: string[] = [];
      page.on('request', (request) => {
        if (/\/api\/(main\/home|platform\/getplatform)/.test(request.url())) catalogCalls.push(request.url());
      });
      // Watches the page from its first byte: any loader that shows up is recorded.
      await page.evaluateOnNewDocument(() => {
        const seen: string[] = [];
        (window as unknown as { loaders: string[] }).loaders = seen;
        new MutationObserver(() => {
          for (const id of ['route-loading', 'loading-overlay']) if (document.querySelector(`[data-testid="${id}"]`) && !seen.includes(id)) seen.push(id);
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle0' });
      await page.waitForSelector(ready);
      expect(await page.$('#root [data-ssr]'), path).to.equal(null);
      expect(await page.evaluate(() => (window as unknown as { loaders: string[] }).loaders), path).to.deep.equal([]);
      expect(catalogCalls.length, `${path}: ${catalogCalls.join(', ')}`).to.be.at.most(1);
      await page.close();
    }
  });

  it('the KRW prices on the page are the catalog prices in KRW', async () => {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'ko-KR,ko;q=0.9' });
    await page.goto(`${baseUrl}/platform/3`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"][data-currency="KRW"]');
    const durationId = Number(await page.$eval('[data-testid="duration-option"][data-selected="true"]', (option) => option.getAttribute('data-option-id')));
    const typeId = Number(await page.$eval('[data-testid="type-option"][data-selected="true"]', (option) => option.getAttribute('data-option-id')));
    const response = await fetch(`${baseUrl}/api/platform/getplatform?id=3&languageId=2&currency=KRW`);
    const { platform } = (await response.json()) as {
      platform: {
        duration: Array<{ id: number; value: number }>;
        prices: Array<{ durationId: number; typeId: number; salePrice: Array<{ currencyId: number; price: number }> }>;
      };
    };
    // KRW has no decimals: whole won, grouped.
    const sale = platform.prices
      .find((price) => price.durationId === durationId && price.typeId === typeId)!
      .salePrice.find((amount) => amount.currencyId === 2)!.price;
    const months = platform.duration.find((duration) => duration.id === durationId)!.value;
    expect(await text(page, 'platform-sale-price')).to.equal(`₩${sale.toLocaleString('en-US')}`);
    expect(await text(page, 'platform-monthly-price')).to.equal(`₩${Math.round(sale / months).toLocaleString('en-US')}/월`);
    await page.close();
  });
});
