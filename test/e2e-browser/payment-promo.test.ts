/**
 * A promotion code at the payment page (issue 37 item 2), in Chromium against the real server:
 * "Have a code?" by keyboard, the discounted total shown, paid through the demo provider and listed
 * in the order e-mail (delivered by SMTP); a `?code=` link from the platform page to the order at
 * 320 px in Korean; a currency switch on the payment page that keeps the applied code (it moves
 * to the new order); and a refused code's reason in both languages, the order made without it.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { listen } from '@subshare/http';
import { loginAs, type TestUser } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { onFreePort } from '../support/ports.js';
import { chooseCurrency, loggedInPage, openBrowser, type BrowserSession, type LoggedInPageOptions } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

type Currency = 'EUR' | 'KRW';

/** How the shop writes an amount: "€12.99", "₩19,900", "-€1.30". */
function shown(minor: number, currency: Currency): string {
  const sign = minor < 0 ? '-' : '';
  const major = Math.abs(minor) / (currency === 'EUR' ? 100 : 1);
  return currency === 'EUR' ? `${sign}€${major.toFixed(2)}` : `${sign}₩${major.toLocaleString('en-US')}`;
}

/** A code no other test run has made: 3 to 32 letters and digits. */
const newCode = (prefix: string) => `${prefix}${randomBytes(4).toString('hex').toUpperCase()}`;

const NARROW = { width: 320, height: 640 };

describe('browser: a promotion code at the payment page', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let server: { close(): Promise<void> } | undefined;
  let admin: TestUser;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    // The demo checkout URL is built from PUBLIC_URL: a server of its own whose public URL is its address.
    const started = await onFreePort((port) => listen(harness().appWith({ PUBLIC_URL: `http://127.0.0.1:${port}` }).app, port, '127.0.0.1'));
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
    admin = await loginAs('admin');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Staff make a code through the call (percentOff, or a window that has ended). */
  async function createCode(body: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${baseUrl}/api/promo/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...admin.auth },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).to.equal(200);
  }

  function buyerPage(user: TestUser, options: Pick<LoggedInPageOptions, 'language' | 'viewport' | 'currency'> = {}): Promise<Page> {
    return loggedInPage(browser, baseUrl, user, options);
  }

  /** Records the JSON bodies the page posts to the API. */
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
  const orderRow = (id: number) => harness().knex('orders').where({ id }).first();

  /** The platform page (its address as given), then Go to payment: answers the order made on /payment. */
  async function orderFrom(page: Page, platformPath: string): Promise<number> {
    await page.goto(`${baseUrl}${platformPath}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"]');
    await page.click('[data-testid="platform-go-to-payment"]');
    await page.waitForFunction(() => location.pathname === '/payment');
    const ready = await page.waitForSelector('[data-testid="page-payment"][data-status="ready"]');
    return Number(await ready!.evaluate((element) => element.getAttribute('data-order-id')));
  }

  /** Pay now → the demo checkout → Pay → the shop's result page, paid. */
  async function payOnDemoPage(page: Page): Promise<void> {
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="payment-pay"]')]);
    expect(new URL(page.url()).pathname).to.match(/^\/demo-checkout\//);
    await page.waitForSelector('[data-testid="demo-banner"]');
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="demo-pay"]')]);
    await page.waitForSelector('[data-testid="payment-result"][data-success="true"]');
  }

  /** The order e-mail of `orderId` (purchased, active or not yet), as delivered by SMTP. */
  function orderEmail(buyer: TestUser, orderId: number) {
    return harness().mailTo(buyer.email, (mail) => mail.subject.includes(`#${orderId}`));
  }

  it('English: "Have a code?" by keyboard, the discounted total, paid with the demo provider, and the order e-mail lists the discount', async () => {
    const code = newCode('TEN');
    await createCode({ code, percentOff: 10 });
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer, { currency: 'EUR' });
    const posts = recordPosts(page);
    const orderId = await orderFrom(page, '/platform/1');
    const before = await orderRow(orderId);
    expect(before.discount_minor).to.equal(0);
    // No discount: the total alone, as before.
    expect(await page.$('[data-testid="payment-price-lines"]')).to.equal(null);
    expect(await text(page, 'payment-total')).to.equal(shown(before.total_minor, 'EUR'));

    // The disclosure, opened by keyboard: a labelled field, then Apply; Enter submits.
    expect(await page.$eval('[data-testid="payment-promo-toggle"]', (button) => button.getAttribute('aria-expanded'))).to.equal('false');
    expect(await text(page, 'payment-promo-toggle')).to.equal('Have a code?');
    expect(await page.$('[data-testid="payment-promo-form"]')).to.equal(null);
    await page.focus('[data-testid="payment-promo-toggle"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="payment-promo-form"]');
    expect(await page.$eval('[data-testid="payment-promo-toggle"]', (button) => button.getAttribute('aria-expanded'))).to.equal('true');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).to.equal('payment-promo-input');
    expect(await page.$eval('[data-testid="payment-promo-input"]', (input) => (input as HTMLInputElement).labels?.[0]?.textContent?.trim())).to.equal(
      'Promotion code',
    );
    // Codes are case-insensitive: typed in lower case.
    await page.keyboard.type(code.toLowerCase());
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="payment-discount"]');

    expect(posts.filter((post) => post.path === '/api/order/applypromo')).to.deep.equal([
      { path: '/api/order/applypromo', body: { orderId, code: code.toLowerCase() } },
    ]);
    const after = await orderRow(orderId);
    // The server's discount: 10 %, half up, off the catalog price.
    expect(after.subtotal_minor).to.equal(before.total_minor);
    expect(after.discount_minor).to.equal(Math.round(before.total_minor / 10));
    expect(after.total_minor).to.equal(after.subtotal_minor - after.discount_minor);
    expect(await text(page, 'payment-subtotal-label')).to.equal('Price');
    expect(await text(page, 'payment-subtotal')).to.equal(shown(after.subtotal_minor, 'EUR'));
    expect(await text(page, 'payment-discount-label')).to.equal(`Discount (code ${code})`);
    expect(await text(page, 'payment-discount')).to.equal(shown(-after.discount_minor, 'EUR'));
    expect(await text(page, 'payment-total-label')).to.equal('Total');
    expect(await text(page, 'payment-total')).to.equal(shown(after.total_minor, 'EUR'));
    expect(await text(page, 'payment-promo-applied')).to.equal(`Code ${code} applied.`);
    expect(await page.$('[data-testid="payment-credit"]')).to.equal(null);

    await payOnDemoPage(page);
    const paid = await orderRow(orderId);
    expect(paid.state).to.be.oneOf([2, 6]);
    expect(paid.total_minor).to.equal(after.total_minor);

    const mail = await orderEmail(buyer, orderId);
    expect(mail.text).to.contain(`Price: ${shown(after.subtotal_minor, 'EUR')}`);
    expect(mail.text).to.contain(`Discount (code ${code}): ${shown(-after.discount_minor, 'EUR')}`);
    expect(mail.text).to.contain(`Total: ${shown(after.total_minor, 'EUR')}`);
    await page.close();
  });

  it('Korean at 320 px: a ?code= link from the platform page makes the order with the code, paid with KakaoPay, and the e-mail says so', async () => {
    const code = newCode('KO');
    await createCode({ code, percentOff: 20 });
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer, { language: 'ko', currency: 'KRW', viewport: NARROW });
    const posts = recordPosts(page);
    const orderId = await orderFrom(page, `/platform/1?code=${code}`);

    // The code went with the order; nothing had to be applied afterwards.
    const insert = posts.find((post) => post.path === '/api/order/insert')!;
    expect(insert.body).to.deep.include({ promoCode: code, currency: 'KRW', languageId: 2 });
    expect(posts.filter((post) => post.path === '/api/order/applypromo')).to.deep.equal([]);
    const row = await orderRow(orderId);
    expect(row.currency).to.equal('KRW');
    expect(row.discount_minor).to.equal(Math.round(row.subtotal_minor / 5));
    expect(await text(page, 'payment-subtotal-label')).to.equal('상품 금액');
    expect(await text(page, 'payment-subtotal')).to.equal(shown(row.subtotal_minor, 'KRW'));
    expect(await text(page, 'payment-discount-label')).to.equal(`할인 (코드 ${code})`);
    expect(await text(page, 'payment-discount')).to.equal(shown(-row.discount_minor, 'KRW'));
    expect(await text(page, 'payment-total-label')).to.equal('총 결제 금액');
    expect(await text(page, 'payment-total')).to.equal(shown(row.total_minor, 'KRW'));
    expect(await text(page, 'payment-promo-toggle')).to.equal('코드가 있으신가요?');

    // At 320 px the page and the opened form fit the screen.
    await page.click('[data-testid="payment-promo-toggle"]');
    await page.waitForSelector('[data-testid="payment-promo-form"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).to.equal(true);
    const apply = await page.$eval('[data-testid="payment-promo-apply"]', (button) => button.getBoundingClientRect().right);
    expect(apply).to.be.at.most(NARROW.width);

    await page.click('[data-testid="payment-method"][data-method="3"]');
    await payOnDemoPage(page);
    expect(await text(page, 'payment-result-title')).to.equal('결제 성공');
    expect((await orderRow(orderId)).state).to.be.oneOf([2, 6]);

    const mail = await orderEmail(buyer, orderId);
    expect(mail.text).to.contain(`상품 금액: ${shown(row.subtotal_minor, 'KRW')}`);
    expect(mail.text).to.contain(`할인 (코드 ${code}): ${shown(-row.discount_minor, 'KRW')}`);
    expect(mail.text).to.contain(`합계: ${shown(row.total_minor, 'KRW')}`);
    await page.close();
  });

  it('English: after a code is applied, switching the currency on the payment page keeps it on the new order', async () => {
    const code = newCode('SWITCH');
    // Single-use for the buyer (the default per-buyer limit), and one redemption in all.
    await createCode({ code, percentOff: 10, totalLimit: 1 });
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer, { currency: 'EUR' });
    const posts = recordPosts(page);
    const first = await orderFrom(page, '/platform/1');
    await page.click('[data-testid="payment-promo-toggle"]');
    await page.type('[data-testid="payment-promo-input"]', code);
    await page.click('[data-testid="payment-promo-apply"]');
    await page.waitForSelector('[data-testid="payment-discount"]');
    expect((await orderRow(first)).promo_code).to.equal(code);

    await chooseCurrency(page, 'KRW');
    const second = Number(
      await (
        await page.waitForFunction(
          (old) => {
            const ready = document.querySelector('[data-testid="page-payment"][data-status="ready"]');
            const id = ready?.getAttribute('data-order-id');
            return id && id !== String(old) && document.querySelector('[data-testid="payment-discount"]') ? id : false;
          },
          {},
          first,
        )
      ).jsonValue(),
    );
    // The new order was asked for with the code, and got it: no refusal shown.
    expect(posts.filter((post) => post.path === '/api/order/insert').map((post) => post.body.promoCode)).to.deep.equal([undefined, code]);
    expect(await page.evaluate(() => document.querySelector('[data-testid="payment-promo-error"]')?.textContent ?? '')).to.equal('');
    const row = await orderRow(second);
    expect(row).to.include({ currency: 'KRW', promo_code: code, discount_source: 'code' });
    expect(row.discount_minor).to.equal(Math.round(row.subtotal_minor / 10));
    expect(await text(page, 'payment-discount-label')).to.equal(`Discount (code ${code})`);
    expect(await text(page, 'payment-discount')).to.equal(shown(-row.discount_minor, 'KRW'));
    expect(await text(page, 'payment-total')).to.equal(shown(row.total_minor, 'KRW'));
    // The EUR order, still unpaid, gave the code up: back to its price.
    const old = await orderRow(first);
    expect(old).to.include({ discount_minor: 0, promo_code: null, discount_source: null });
    expect(old.total_minor).to.equal(old.subtotal_minor);
    await page.close();
  });

  it('English: a code that does not exist is refused with its reason; the total is unchanged', async () => {
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer, { currency: 'EUR' });
    const orderId = await orderFrom(page, '/platform/1');
    const before = await orderRow(orderId);

    await page.click('[data-testid="payment-promo-toggle"]');
    await page.type('[data-testid="payment-promo-input"]', newCode('NONE'));
    await page.click('[data-testid="payment-promo-apply"]');
    await page.waitForFunction(() => (document.querySelector('[data-testid="payment-promo-error"]')?.textContent ?? '') !== '');
    expect(await text(page, 'payment-promo-error')).to.equal('This code does not exist.');
    expect(await page.$eval('[data-testid="payment-promo-input"]', (input) => input.getAttribute('aria-invalid'))).to.equal('true');
    expect(await page.$eval('[data-testid="payment-promo-input"]', (input) => input.getAttribute('aria-describedby'))).to.equal('payment-promo-error');
    expect(await page.$('[data-testid="payment-discount"]')).to.equal(null);
    expect(await text(page, 'payment-total')).to.equal(shown(before.total_minor, 'EUR'));
    expect((await orderRow(orderId)).discount_minor).to.equal(0);
    // Pay now still works on the order as it is.
    expect(await page.$eval('[data-testid="payment-pay"]', (button) => (button as HTMLButtonElement).disabled)).to.equal(false);
    await page.close();
  });

  it('Korean: an expired code in a ?code= link still makes the order, without it, and says why at "Have a code?"', async () => {
    const code = newCode('OLD');
    await createCode({ code, percentOff: 10, startsAt: '2020-01-01T00:00:00Z', endsAt: '2020-02-01T00:00:00Z' });
    const buyer = await loginAs('user');
    const page = await buyerPage(buyer, { language: 'ko', currency: 'KRW' });
    const posts = recordPosts(page);
    const orderId = await orderFrom(page, `/platform/1?code=${code}`);

    // Asked with the code, refused, then made without it.
    const inserts = posts.filter((post) => post.path === '/api/order/insert');
    expect(inserts.map((post) => post.body.promoCode)).to.deep.equal([code, undefined]);
    const row = await orderRow(orderId);
    expect(row.discount_minor).to.equal(0);
    expect(row.promo_code).to.equal(null);
    expect(await page.$('[data-testid="payment-discount"]')).to.equal(null);
    expect(await text(page, 'payment-total')).to.equal(shown(row.total_minor, 'KRW'));

    // The disclosure is open, with the code and the Korean reason.
    await page.waitForSelector('[data-testid="payment-promo"][data-open="true"] [data-testid="payment-promo-form"]');
    expect(await page.$eval('[data-testid="payment-promo-input"]', (input) => (input as HTMLInputElement).value)).to.equal(code);
    expect(await text(page, 'payment-promo-error')).to.equal('기간이 끝난 코드입니다.');
    await page.close();
  });
});
