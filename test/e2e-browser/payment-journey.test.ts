import { expect } from 'chai';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { listen } from '@subshare/http';
import { loginAs, type TestUser } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { onFreePort } from '../support/ports.js';
import { loggedInPage, openBrowser, PHONE, type BrowserSession, type LoggedInPageOptions, closeSnackbar } from '../support/browser.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

interface WireAmount {
  currencyId: number;
  price: number;
}
interface WirePlatform {
  id: number;
  name: string;
  logoBase: string;
  colorOne: string;
  duration: Array<{ id: number; name: string; value: number; isEnable: boolean }>;
  type: Array<{ id: number; name: string; isEnable: boolean }>;
  prices: Array<{ durationId: number; typeId: number; price: WireAmount[]; salePrice: WireAmount[] }>;
}
type Currency = 'EUR' | 'KRW';

const CURRENCY_IDS = { EUR: 1, KRW: 2 } as const;
const ENGLISH_METHODS: Record<number, string> = {
  1: 'Card',
  2: 'Crypto (BTC, ETH, USDT, SOL, TRX and 60+ more)',
  3: 'KakaoPay',
  4: 'Samsung Pay',
  5: 'Korean credit card',
  6: 'Korean internet banking',
};
const KOREAN_METHODS: Record<number, string> = {
  1: '카드',
  2: '암호화폐 (BTC, ETH, USDT, SOL, TRX 외 60종 이상)',
  3: '카카오페이',
  4: '삼성페이',
  5: '국내 신용카드',
  6: '국내 인터넷 뱅킹',
};

/** How the shop writes an amount: "€12.99", "₩19,900" (KRW without decimals). */
function shown(amount: number, currency: Currency): string {
  return currency === 'EUR' ? `€${amount.toFixed(2)}` : `₩${Math.round(amount).toLocaleString('en-US')}`;
}

function sale(platform: WirePlatform, durationId: number, typeId: number, currency: Currency): number {
  const entry = platform.prices.find((price) => price.durationId === durationId && price.typeId === typeId)!;
  return entry.salePrice.find((amount) => amount.currencyId === CURRENCY_IDS[currency])!.price;
}

/**
 * A buyer orders from a platform page and pays through the demo provider (no provider keys in
 * the test run): every method's checkout page is the shop's own /demo-checkout, which sends
 * the browser back to /paymentresult/{id}/1 (paid) or /0.
 */
describe('browser: payment journey', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let server: { close(): Promise<void> } | undefined;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    // The demo checkout URL is built from PUBLIC_URL: a server of its own whose public URL is its address.
    const started = await onFreePort((port) => listen(harness().appWith({ PUBLIC_URL: `http://127.0.0.1:${port}` }).app, port, '127.0.0.1'));
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function apiPlatform(id: number, languageId = 1): Promise<WirePlatform> {
    const response = await fetch(`${baseUrl}/api/platform/getplatform?id=${id}&languageId=${languageId}&currency=EUR`);
    expect(response.status).to.equal(200);
    return ((await response.json()) as { platform: WirePlatform }).platform;
  }

  /** A fresh incognito page, logged in as `user` (stored as the login page stores it), in a language and currency. */
  function buyerPage(user: TestUser, options: Pick<LoggedInPageOptions, 'language' | 'viewport'> & { currency?: Currency } = {}): Promise<Page> {
    return loggedInPage(browser, baseUrl, user, options);
  }

  /** Records the JSON bodies the page posts to the API, by path. */
  function recordPosts(page: Page): Array<{ path: string; body: Record<string, unknown> }> {
    const posts: Array<{ path: string; body: Record<string, unknown> }> = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'POST' && url.pathname.startsWith('/api/')) {
        posts.push({ path: url.pathname, body: JSON.parse(request.postData() || '{}') as Record<string, unknown> });
      }
    });
    return posts;
  }

  const text = (page: Page, testId: string) => page.$eval(`[data-testid="${testId}"]`, (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim());
  const texts = (page: Page, selector: string) =>
    page.$$eval(selector, (elements) => elements.map((element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim()));
  const methods = (page: Page) =>
    page.$$eval('[data-testid="payment-method"]', (buttons) =>
      buttons.map((button) => ({
        id: Number(button.getAttribute('data-method')),
        name: (button.textContent ?? '').trim(),
        pressed: button.getAttribute('aria-pressed'),
      })),
    );
  const payDisabled = (page: Page) => page.$eval('[data-testid="payment-pay"]', (button) => (button as HTMLButtonElement).disabled);

  /** Platform page: picks the duration and type, then 'go to payment'; answers the order shown on /payment. */
  async function orderFromPlatformPage(page: Page, platform: WirePlatform, durationId: number, typeId: number): Promise<number> {
    await page.goto(`${baseUrl}/platform/${platform.id}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector(`[data-testid="page-platform"][data-status="loaded"][data-platform-id="${platform.id}"]`);
    await page.click(`[data-testid="duration-option"][data-option-id="${durationId}"]`);
    await page.click(`[data-testid="type-option"][data-option-id="${typeId}"]`);
    await page.waitForSelector(`[data-testid="duration-option"][data-option-id="${durationId}"][data-selected="true"]`);
    await page.waitForSelector(`[data-testid="type-option"][data-option-id="${typeId}"][data-selected="true"]`);
    await page.click('[data-testid="platform-go-to-payment"]');
    await page.waitForFunction(() => location.pathname === '/payment');
    const ready = await page.waitForSelector('[data-testid="page-payment"][data-status="ready"]');
    return Number(await ready!.evaluate((element) => element.getAttribute('data-order-id')));
  }

  /** Pay now → the provider's page (the demo checkout) → Pay or Cancel → back on the shop's result page. */
  async function payOnDemoPage(page: Page, outcome: 'pay' | 'cancel'): Promise<void> {
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="payment-pay"]')]);
    expect(new URL(page.url()).pathname).to.match(/^\/demo-checkout\//);
    await page.waitForSelector('[data-testid="demo-banner"]');
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click(`[data-testid="demo-${outcome}"]`)]);
  }

  const orderRow = (id: number) => harness().knex('orders').where({ id }).first();

  it('EUR: platform page → order on load → Pay now with the default method → demo Pay → Payment Successful, order paid (state 6)', async () => {
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer);
    const posts = recordPosts(page);
    const platform = await apiPlatform(1);
    const types = platform.type.filter((type) => type.isEnable);
    const durations = platform.duration.filter((duration) => duration.isEnable);
    // Not the preselected options: the choice made on the platform page is what gets ordered.
    const type = types.at(-1)!;
    const duration = durations.at(-1)!;

    const orderId = await orderFromPlatformPage(page, platform, duration.id, type.id);

    // The order was created on load with the spec's payload; the currency is left to the server (no choice made).
    const insert = posts.find((post) => post.path === '/api/order/insert')!;
    expect(insert.body).to.deep.equal({ platformId: 1, typeId: type.id, durationId: duration.id, quantity: 1, userId: buyer.id, languageId: 1 });
    const row = await orderRow(orderId);
    expect(row.user_id).to.equal(buyer.id);
    expect(row.currency).to.equal('EUR');

    // Logo on the platform's colour, one row per item (order number, type, duration), the total in the order's currency.
    expect(await page.$eval('[data-testid="payment-platform-logo"]', (image) => new URL((image as HTMLImageElement).src).pathname)).to.equal(platform.logoBase);
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    expect(await page.$eval('[data-testid="payment-platform"]', (element) => getComputedStyle(element).backgroundColor)).to.equal(rgb(platform.colorOne));
    expect(await page.$$('[data-testid="payment-item"]')).to.have.length(1);
    expect(await text(page, 'payment-item-order')).to.equal(String(orderId));
    expect(await text(page, 'payment-item-type')).to.equal(type.name);
    expect(await text(page, 'payment-item-duration')).to.equal(duration.name);
    expect(await text(page, 'payment-total')).to.equal(shown(sale(platform, duration.id, type.id, 'EUR'), 'EUR'));
    expect(row.total_minor).to.equal(Math.round(sale(platform, duration.id, type.id, 'EUR') * 100));

    // EUR: crypto and card, crypto (method 2, the default) first and preselected.
    expect(await methods(page)).to.deep.equal([
      { id: 2, name: ENGLISH_METHODS[2], pressed: 'true' },
      { id: 1, name: ENGLISH_METHODS[1], pressed: 'false' },
    ]);
    expect(await text(page, 'payment-pay')).to.equal('Pay now');
    expect(await payDisabled(page)).to.equal(false);

    await payOnDemoPage(page, 'pay');
    expect(posts.filter((post) => post.path.startsWith('/api/payment/createcheckoutsession'))).to.deep.equal([
      { path: '/api/payment/createcheckoutsessioncoinpal', body: { orderId } },
    ]);
    expect(new URL(page.url()).pathname).to.equal(`/paymentresult/${orderId}/1`);
    await page.waitForSelector('[data-testid="payment-result"][data-success="true"]');
    expect(await text(page, 'payment-result-title')).to.equal('Payment Successful');
    expect(await page.$eval('[data-testid="payment-result-title"]', (element) => element.tagName)).to.equal('H1');
    expect((await orderRow(orderId)).state).to.be.oneOf([2, 6]); // paid: waiting, or already activated by the worker

    // The button to the buyer's panel: the process-payment call, then /user/{userId}.
    expect(await text(page, 'payment-result-subscriptions')).to.equal('GO TO YOUR SUBSCRIBE');
    await page.click('[data-testid="payment-result-subscriptions"]');
    await page.waitForFunction((id) => location.pathname === `/user/${id}`, {}, buyer.id);
    expect(posts.filter((post) => post.path === '/api/payment/process')).to.deep.equal([{ path: '/api/payment/process', body: { orderId } }]);
    await page.close();
  });

  it('Card, then Cancel on the provider page → Payment Failed, Try again later, HOME; the order is not paid', async () => {
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer, { viewport: PHONE });
    const posts = recordPosts(page);
    const platform = await apiPlatform(1);
    const type = platform.type.find((option) => option.isEnable)!;
    const duration = platform.duration.find((option) => option.isEnable)!;
    const orderId = await orderFromPlatformPage(page, platform, duration.id, type.id);

    // Choosing another method moves the pressed state.
    await page.click('[data-testid="payment-method"][data-method="1"]');
    expect((await methods(page)).map((method) => [method.id, method.pressed])).to.deep.equal([
      [2, 'false'],
      [1, 'true'],
    ]);
    // On a phone the page fits the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).to.equal(true);

    await payOnDemoPage(page, 'cancel');
    expect(posts.filter((post) => post.path.startsWith('/api/payment/createcheckoutsession'))).to.deep.equal([
      { path: '/api/payment/createcheckoutsession', body: { orderId } },
    ]);
    expect(new URL(page.url()).pathname).to.equal(`/paymentresult/${orderId}/0`);
    await page.waitForSelector('[data-testid="payment-result"][data-success="false"]');
    expect(await text(page, 'payment-result-title')).to.equal('Payment Failed');
    expect(await texts(page, '[data-testid="payment-result-text"]')).to.deep.equal(['Try again later']);
    expect(await text(page, 'payment-result-home')).to.equal('HOME');
    expect([2, 6]).to.not.include((await orderRow(orderId)).state);

    await page.click('[data-testid="payment-result-home"]');
    await page.waitForFunction(() => location.pathname === '/');
    await page.close();
  });

  it('KRW in Korean: the Korean methods, KakaoPay through the regional provider, and its result page checking the payment', async () => {
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer, { language: 'ko', currency: 'KRW' });
    const posts = recordPosts(page);
    const platform = await apiPlatform(1, 2);
    const type = platform.type.find((option) => option.isEnable)!;
    const duration = platform.duration.filter((option) => option.isEnable).at(-1)!;
    const orderId = await orderFromPlatformPage(page, platform, duration.id, type.id);

    const insert = posts.find((post) => post.path === '/api/order/insert')!;
    expect(insert.body).to.deep.include({ languageId: 2, currency: 'KRW', quantity: 1, userId: buyer.id });
    expect((await orderRow(orderId)).currency).to.equal('KRW');
    expect(await text(page, 'payment-total')).to.equal(shown(sale(platform, duration.id, type.id, 'KRW'), 'KRW'));
    expect(await text(page, 'payment-total')).to.match(/^₩\d{1,3}(,\d{3})*$/);
    expect(await text(page, 'payment-item-type')).to.equal(type.name);
    expect(await text(page, 'payment-pay')).to.equal('지금 결제하기');
    expect(await methods(page)).to.deep.equal([2, 1, 3, 4, 5, 6].map((id) => ({ id, name: KOREAN_METHODS[id], pressed: id === 2 ? 'true' : 'false' })));

    await page.click('[data-testid="payment-method"][data-method="3"]');
    await payOnDemoPage(page, 'pay');
    expect(posts.filter((post) => post.path.startsWith('/api/payment/createcheckoutsession'))).to.deep.equal([
      { path: '/api/payment/createcheckoutsessionpayssion', body: { orderId, pmId: 3 } },
    ]);
    await page.waitForSelector('[data-testid="payment-result"][data-success="true"]');
    expect(await text(page, 'payment-result-title')).to.equal('결제 성공');
    expect((await orderRow(orderId)).state).to.be.oneOf([2, 6]); // paid: waiting, or already activated by the worker

    // The regional provider's return page: a spinner while the payment is checked, then the outcome.
    await page.goto(`${baseUrl}/payssionpaymentresult?transaction_id=T-${orderId}&order_id=${orderId}-1`);
    await page.waitForSelector('[data-testid="payssion-result"][data-status="paid"]');
    expect(posts.filter((post) => post.path === '/api/payment/checksessionpayssion')).to.deep.equal([
      { path: '/api/payment/checksessionpayssion', body: { orderId: `${orderId}-1`, transactionId: `T-${orderId}` } },
    ]);
    expect(await text(page, 'payssion-result-title')).to.equal('결제 성공!');
    expect(await texts(page, '[data-testid="payssion-result-text"]')).to.include('결제가 완료되었습니다.');
    await page.click('[data-testid="payssion-result-subscriptions"]');
    await page.waitForFunction((id) => location.pathname === `/user/${id}`, {}, buyer.id);

    // An order that was never paid: the check says so.
    const unpaid = await fetch(`${baseUrl}/api/order/insert`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...buyer.auth },
      body: JSON.stringify({ platformId: 1, typeId: type.id, durationId: duration.id, quantity: 1, userId: buyer.id, languageId: 2, currency: 'KRW' }),
    }).then((response) => response.json() as Promise<{ id: number }>);
    await page.goto(`${baseUrl}/payssionpaymentresult?transaction_id=none&order_id=${unpaid.id}`);
    await page.waitForSelector('[data-testid="payssion-result"][data-status="failed"]');
    expect(await text(page, 'payssion-result-title')).to.equal('결제 실패!');
    expect(await texts(page, '[data-testid="payssion-result-text"]')).to.deep.equal(['잠시 후 다시 시도해 주세요.']);
    expect(await text(page, 'payssion-result-home')).to.equal('홈');
    await page.close();
  });

  it('the Payssion result page in English, and a check that fails counts as a failed payment', async () => {
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer);
    await page.setRequestInterception(true);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    page.on('request', (request: HTTPRequest) => {
      if (!request.url().includes('/api/payment/checksessionpayssion')) return void request.continue();
      // Held until the spinner has been seen, then refused.
      void held.then(() =>
        request.respond({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'down', code: 'provider_unavailable' }) }),
      );
    });
    await page.goto(`${baseUrl}/payssionpaymentresult?transaction_id=T1&order_id=123456-1`);
    await page.waitForSelector('[data-testid="payssion-result"][data-status="checking"] [data-testid="payssion-checking"]');
    release();
    await page.waitForSelector('[data-testid="payssion-result"][data-status="failed"]');
    expect(await text(page, 'payssion-result-title')).to.equal('Payment Failed!');
    expect(await texts(page, '[data-testid="payssion-result-text"]')).to.deep.equal(['Try again later.']);
    expect(await text(page, 'payssion-result-home')).to.equal('HOME');
    // Only logged: no snackbar.
    expect(await page.$('[data-testid="snackbar"]')).to.equal(null);
    await page.close();
  });

  it('errors as the spec says: a regional method shows the message and re-enables Pay now; card and crypto only log and keep it disabled', async () => {
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer, { currency: 'KRW' });
    const failing = new Set(['/api/payment/createcheckoutsessionpayssion', '/api/payment/createcheckoutsession']);
    const refused: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (request: HTTPRequest) => {
      const path = new URL(request.url()).pathname;
      if (!failing.has(path)) return void request.continue();
      refused.push(path);
      void request.respond({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: `Provider unavailable (${path.split('/').pop()})`, code: 'provider_unavailable' }),
      });
    });
    const platform = await apiPlatform(1);
    const type = platform.type.find((option) => option.isEnable)!;
    const duration = platform.duration.find((option) => option.isEnable)!;
    const orderId = await orderFromPlatformPage(page, platform, duration.id, type.id);

    await page.click('[data-testid="payment-method"][data-method="4"]');
    await page.click('[data-testid="payment-pay"]');
    const snackbar = await page.waitForSelector('[data-testid="snackbar"]', { visible: true });
    expect(await snackbar!.evaluate((element) => element.textContent)).to.contain('Provider unavailable (createcheckoutsessionpayssion)');
    await page.waitForFunction(() => !(document.querySelector('[data-testid="payment-pay"]') as HTMLButtonElement).disabled);
    expect(new URL(page.url()).pathname).to.equal('/payment');
    await closeSnackbar(page);

    await page.click('[data-testid="payment-method"][data-method="1"]');
    await page.click('[data-testid="payment-pay"]');
    await waitFor(() => refused.includes('/api/payment/createcheckoutsession'), { what: 'the card checkout call' });
    await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await payDisabled(page)).to.equal(true);
    expect(await page.$('[data-testid="snackbar"]')).to.equal(null);
    expect(new URL(page.url()).pathname).to.equal('/payment');
    expect([2, 6]).to.not.include((await orderRow(orderId)).state);
    await page.close();
  });

  it('order creation failure: logged, and the page says so and offers a retry; with nothing chosen, /payment sends the visitor home', async () => {
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer);
    let failures = 1;
    await page.setRequestInterception(true);
    page.on('request', (request: HTTPRequest) => {
      if (!request.url().includes('/api/order/insert') || failures === 0) return void request.continue();
      failures -= 1;
      void request.respond({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'boom', code: 'internal' }) });
    });

    // Nothing stored from a platform page: nothing to order.
    await page.goto(`${baseUrl}/payment`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => location.pathname === '/');

    await page.evaluate(() => sessionStorage.setItem('subshare.selection', JSON.stringify({ platformId: 1, typeId: 1, durationId: 1 })));
    await page.goto(`${baseUrl}/payment`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-payment"][data-status="failed"] [data-testid="payment-failed"]');
    expect(await page.$('[data-testid="snackbar"]')).to.equal(null);
    await page.click('[data-testid="payment-retry"]');
    await page.waitForSelector('[data-testid="page-payment"][data-status="ready"]');
    expect(await page.$$('[data-testid="payment-item"]')).to.have.length(1);
    await page.close();
  });
});
