/**
 * Paying with credit at the payment page (issue 37 item 4), in Chromium against the real server:
 * a buyer with credit sees "Use my credit" ticked, the credit line and the rest to pay, and the
 * demo provider is asked for the rest only (English, by keyboard); unticking it (Korean, 320 px)
 * shows and charges the whole total and leaves the credit; credit that covers the whole total
 * turns Pay now into "Pay with credit" and lands on the shop's payment-result page, no provider
 * asked (both languages). A checkout ticked "Renew automatically" spends none (the renewals do),
 * and the summary says so. Credit is given as a referral reward would (CreditService.earn).
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { CreditService, freePort, money, type AppConfig, type CurrencyCode } from '@subshare/core';
import { createApp, listen } from '@subshare/http';
import { loginAs, type TestUser } from '../support/agent.js';
import { containerWith } from '../support/containers.js';
import { harness, useWorker } from '../support/harness.js';
import { onFreePort } from '../support/ports.js';
import { loggedInPage, openBrowser, type BrowserSession, type LoggedInPageOptions } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

/** How the shop writes an amount: "€12.99", "₩19,900", "-€1.30". */
function shown(minor: number, currency: CurrencyCode): string {
  const sign = minor < 0 ? '-' : '';
  const major = Math.abs(minor) / (currency === 'EUR' ? 100 : 1);
  return currency === 'EUR' ? `${sign}€${major.toFixed(2)}` : `${sign}₩${major.toLocaleString('en-US')}`;
}

const NARROW = { width: 320, height: 640 };

describe('browser: paying with credit at the payment page', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let server: { close(): Promise<void> } | undefined;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    // The demo checkout URL and the shop's result page are built from PUBLIC_URL: a server whose public URL is its address.
    const started = await onFreePort((port) => listen(harness().appWith({ PUBLIC_URL: `http://127.0.0.1:${port}` }).app, port, '127.0.0.1'));
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  let earned = 0;
  /** The buyer earns credit, as a referral reward would. */
  async function giveCredit(buyer: TestUser, minor: number, currency: CurrencyCode): Promise<void> {
    earned += 1;
    const credit = harness().container.get(CreditService);
    await harness().knex.transaction((trx) => credit.earn(buyer.id, money(minor, currency), { key: `test:browser-credit:${buyer.id}:${earned}` }, trx));
  }
  const available = async (buyer: TestUser, currency: CurrencyCode) => (await harness().container.get(CreditService).available(buyer.id, currency)).amount;

  function buyerPage(user: TestUser, options: Pick<LoggedInPageOptions, 'language' | 'viewport' | 'currency'>): Promise<Page> {
    return loggedInPage(browser, baseUrl, user, options);
  }

  /** Records the JSON bodies the page posts to the checkout calls. */
  function recordCheckouts(page: Page): Array<Record<string, unknown>> {
    const posts: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'POST' && url.pathname.startsWith('/api/payment/createcheckoutsession')) {
        posts.push(JSON.parse(request.postData() || '{}') as Record<string, unknown>);
      }
    });
    return posts;
  }

  const text = (page: Page, testId: string) => page.$eval(`[data-testid="${testId}"]`, (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim());
  const checked = (page: Page) => page.$eval('[data-testid="payment-use-credit"]', (input) => (input as HTMLInputElement).checked);
  const orderRow = (id: number) => harness().knex('orders').where({ id }).first();
  const paymentsOf = (orderId: number) => harness().knex('payments').where({ order_id: orderId }).orderBy('id');

  /** The platform page, then Go to payment: answers the order made on /payment once its credit choice shows. */
  async function orderWithCredit(page: Page, base = baseUrl): Promise<number> {
    await page.goto(`${base}/platform/1`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"]');
    await page.click('[data-testid="platform-go-to-payment"]');
    await page.waitForFunction(() => location.pathname === '/payment');
    const ready = await page.waitForSelector('[data-testid="page-payment"][data-status="ready"]');
    await page.waitForSelector('[data-testid="payment-credit-choice"]');
    return Number(await ready!.evaluate((element) => element.getAttribute('data-order-id')));
  }

  /** Pay now → the demo checkout (answers the amount it asks for) → Pay → the shop's result page, paid. */
  async function payOnDemoPage(page: Page): Promise<string> {
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="payment-pay"]')]);
    expect(new URL(page.url()).pathname).to.match(/^\/demo-checkout\//);
    await page.waitForSelector('[data-testid="demo-banner"]');
    const asked = await page.$eval('.amount', (element) => (element.textContent ?? '').trim());
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="demo-pay"]')]);
    await page.waitForSelector('[data-testid="payment-result"][data-success="true"]');
    return asked;
  }

  it('English, by keyboard: the credit is applied first, the summary shows the rest, and the demo provider is asked only for it', async () => {
    const buyer = await loginAs('user');
    await giveCredit(buyer, 200, 'EUR');
    const page = await buyerPage(buyer, { currency: 'EUR' });
    const posts = recordCheckouts(page);
    const orderId = await orderWithCredit(page);
    const { total_minor: total } = await orderRow(orderId);
    expect(total).to.be.greaterThan(200);

    expect(await text(page, 'payment-use-credit-label')).to.equal('Use my credit (€2.00 available)');
    expect(await checked(page)).to.equal(true);
    expect(await text(page, 'payment-credit-label')).to.equal('Credit applied');
    expect(await text(page, 'payment-credit')).to.equal(shown(-200, 'EUR'));
    expect(await text(page, 'payment-total-label')).to.equal('To pay');
    expect(await text(page, 'payment-total')).to.equal(shown(total - 200, 'EUR'));
    expect(await text(page, 'payment-pay')).to.equal('Pay now');

    // Unticked and ticked again by keyboard: the whole total, then the rest again.
    await page.focus('[data-testid="payment-use-credit"]');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-credit"]') === null);
    expect(await checked(page)).to.equal(false);
    expect(await text(page, 'payment-total-label')).to.equal('Total');
    expect(await text(page, 'payment-total')).to.equal(shown(total, 'EUR'));
    await page.keyboard.press('Space');
    await page.waitForSelector('[data-testid="payment-credit"]');
    expect(await text(page, 'payment-total')).to.equal(shown(total - 200, 'EUR'));

    expect(await payOnDemoPage(page)).to.equal(shown(total - 200, 'EUR'));
    expect(posts).to.have.length(1);
    expect(posts[0]).to.include({ orderId, useCredit: true });
    const [payment] = await paymentsOf(orderId);
    expect(payment).to.include({ provider: 'demo', status: 'paid' });
    expect([Number(payment.amount_minor), Number(payment.credit_minor)]).to.deep.equal([total, 200]);
    expect((await orderRow(orderId)).state).to.be.oneOf([2, 6]);
    expect(await available(buyer, 'EUR')).to.equal(0);
    await page.close();
  });

  it('Korean at 320 px: unticking "Use my credit" shows and charges the whole total, and the credit stays', async () => {
    const buyer = await loginAs('user');
    await giveCredit(buyer, 1000, 'KRW');
    const page = await buyerPage(buyer, { language: 'ko', currency: 'KRW', viewport: NARROW });
    const posts = recordCheckouts(page);
    const orderId = await orderWithCredit(page);
    const { total_minor: total, currency } = await orderRow(orderId);
    expect(currency).to.equal('KRW');
    expect(total).to.be.greaterThan(1000);

    expect(await text(page, 'payment-use-credit-label')).to.equal('적립금 사용하기 (₩1,000 보유)');
    expect(await text(page, 'payment-credit-label')).to.equal('적립금 사용');
    expect(await text(page, 'payment-credit')).to.equal(shown(-1000, 'KRW'));
    expect(await text(page, 'payment-total-label')).to.equal('결제할 금액');
    expect(await text(page, 'payment-total')).to.equal(shown(total - 1000, 'KRW'));
    // At 320 px the page, the choice and its label fit the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).to.equal(true);
    const right = await page.$eval('[data-testid="payment-use-credit-label"]', (label) => label.getBoundingClientRect().right);
    expect(right).to.be.at.most(NARROW.width);

    await page.click('[data-testid="payment-use-credit-label"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-credit"]') === null);
    expect(await text(page, 'payment-total-label')).to.equal('총 결제 금액');
    expect(await text(page, 'payment-total')).to.equal(shown(total, 'KRW'));
    expect(await text(page, 'payment-pay')).to.equal('지금 결제하기');

    expect(await payOnDemoPage(page)).to.equal(shown(total, 'KRW'));
    expect(await text(page, 'payment-result-title')).to.equal('결제 성공');
    expect(posts).to.have.length(1);
    expect(posts[0]).to.include({ orderId, useCredit: false });
    const [payment] = await paymentsOf(orderId);
    expect([Number(payment.amount_minor), Number(payment.credit_minor)]).to.deep.equal([total, 0]);
    expect(await available(buyer, 'KRW')).to.equal(1000);
    await page.close();
  });

  it('English: with "Renew automatically" ticked the summary shows the whole total and says the credit pays the renewals', async () => {
    // Cards are saved for renewal where a card provider can save them: a shop in demo mode (no Stripe keys here).
    const port = await freePort();
    const config: AppConfig = { ...harness().config, mode: 'demo', publicUrl: `http://127.0.0.1:${port}` };
    const demoShop = await listen(createApp(containerWith({ config }), { accessLog: false }), port, '127.0.0.1');
    try {
      const buyer = await loginAs('user');
      await giveCredit(buyer, 200, 'EUR');
      const page = await loggedInPage(browser, demoShop.url, buyer, { currency: 'EUR' });
      const orderId = await orderWithCredit(page, demoShop.url);
      const { total_minor: total } = await orderRow(orderId);
      await page.click('[data-testid="payment-method"][data-method="1"]');
      await page.waitForSelector('[data-testid="payment-autorenew"]');
      expect(await text(page, 'payment-total')).to.equal(shown(total - 200, 'EUR'));
      expect(await page.$('[data-testid="payment-credit-kept"]')).to.equal(null);

      await page.click('[data-testid="payment-autorenew"] label');
      await page.waitForSelector('[data-testid="payment-credit-kept"]');
      expect(await text(page, 'payment-credit-kept')).to.equal('With automatic renewal, this payment is by card and your credit pays the renewals first.');
      expect(await page.$('[data-testid="payment-credit"]')).to.equal(null);
      expect(await text(page, 'payment-total-label')).to.equal('Total');
      expect(await text(page, 'payment-total')).to.equal(shown(total, 'EUR'));
      // "Use my credit" stays as chosen: unticking renewal brings the credit line back.
      expect(await checked(page)).to.equal(true);
      await page.click('[data-testid="payment-autorenew"] label');
      await page.waitForSelector('[data-testid="payment-credit"]');
      expect(await text(page, 'payment-total')).to.equal(shown(total - 200, 'EUR'));
      await page.close();
    } finally {
      await demoShop.close();
    }
  });

  for (const { language, currency, credit, payLabel, titleText } of [
    { language: 'en', currency: 'EUR', credit: 10_000, payLabel: 'Pay with credit', titleText: 'Payment Successful' },
    { language: 'ko', currency: 'KRW', credit: 1_000_000, payLabel: '적립금으로 결제하기', titleText: '결제 성공' },
  ] as const) {
    it(`${language === 'en' ? 'English' : 'Korean'}: credit that covers the whole total pays with credit only and lands on the payment result page`, async () => {
      const buyer = await loginAs('user');
      await giveCredit(buyer, credit, currency);
      const page = await buyerPage(buyer, { language, currency });
      const posts = recordCheckouts(page);
      const orderId = await orderWithCredit(page);
      const { total_minor: total } = await orderRow(orderId);
      expect(total).to.be.lessThan(credit);

      expect(await text(page, 'payment-credit')).to.equal(shown(-total, currency));
      expect(await text(page, 'payment-total')).to.equal(shown(0, currency));
      expect(await text(page, 'payment-pay')).to.equal(payLabel);

      await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="payment-pay"]')]);
      expect(new URL(page.url()).pathname).to.equal(`/paymentresult/${orderId}/1`);
      await page.waitForSelector('[data-testid="payment-result"][data-success="true"]');
      expect(await text(page, 'payment-result-title')).to.equal(titleText);
      expect(posts[0]).to.include({ orderId, useCredit: true });
      const [payment] = await paymentsOf(orderId);
      expect(payment).to.include({ provider: 'credit', status: 'paid' });
      expect([Number(payment.amount_minor), Number(payment.credit_minor)]).to.deep.equal([total, total]);
      expect(await available(buyer, currency)).to.equal(credit - total);
      await page.close();
    });
  }
});
