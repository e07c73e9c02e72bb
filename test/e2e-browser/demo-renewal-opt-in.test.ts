import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { freePort, type AppConfig, RenewalFlow } from '@subshare/core';
import { createApp, listen } from '@subshare/http';
import { loginAs } from '../support/agent.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { containerWith } from '../support/containers.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

/**
 * The demo opt-in in Chromium (issue 34, item 5): on a shop in demo mode (no Stripe keys, no SMTP),
 * the payment page offers "Renew automatically" for the card method; ticked, the demo checkout page
 * asks which demo card to save (in the visitor's language), and the one chosen is the card the
 * renewal pass learns. The charges themselves: test/e2e-api/demo-renewal.test.ts.
 */
describe('browser: automatic renewal opted into on the demo checkout page', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let renewal: RenewalFlow;
  let server: { close(): Promise<void> } | undefined;

  before(async function () {
    this.timeout(300_000);
    ensureWebBuilt();
    const port = await freePort();
    const config: AppConfig = {
      ...harness().config,
      mode: 'demo',
      publicUrl: `http://127.0.0.1:${port}`,
      mail: { ...harness().config.mail, smtpUrl: undefined },
    };
    const container = containerWith({ config });
    renewal = container.get(RenewalFlow);
    const started = await listen(createApp(container, { accessLog: false }), port, '127.0.0.1');
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Platform 1 of the demo catalog, ordered with its preselected options, on the payment page with the card method chosen. */
  async function cardPaymentPage(page: Page): Promise<number> {
    await page.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-platform"][data-status="loaded"][data-platform-id="1"]');
    await page.click('[data-testid="platform-go-to-payment"]');
    const ready = await page.waitForSelector('[data-testid="page-payment"][data-status="ready"]');
    const orderId = Number(await ready!.evaluate((element) => element.getAttribute('data-order-id')));
    await page.click('[data-testid="payment-method"][data-method="1"]');
    await page.waitForSelector('[data-testid="payment-method"][data-method="1"][aria-pressed="true"]');
    return orderId;
  }

  for (const language of ['en', 'ko'] as const) {
    it(`${language}: "Renew automatically" ticked → the demo page offers the demo cards → the declining one chosen is the card saved`, async () => {
      const buyer = await loginAs('user');
      const page = await loggedInPage(browser, baseUrl, buyer, { language, currency: 'EUR' });
      const orderId = await cardPaymentPage(page);
      await page.waitForSelector('[data-testid="payment-autorenew"]', { visible: true });
      await page.click('[data-testid="payment-autorenew"] label');
      await page.waitForFunction(() => (document.querySelector('[data-testid="payment-autorenew-checkbox"]') as HTMLInputElement | null)?.checked === true);
      await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="payment-pay"]')]);
      expect(new URL(page.url()).pathname).to.match(/^\/demo-checkout\//);
      const choice = await page.waitForSelector('[data-testid="demo-card-choice"]', { visible: true });
      const legend = await choice!.evaluate((element) => element.querySelector('legend')?.textContent ?? '');
      expect(legend).to.equal(language === 'ko' ? '자동 연장에 저장할 데모 카드' : 'Demo card saved for automatic renewal');
      // The card that pays is chosen unless the buyer picks the other.
      expect(await page.$eval('[data-testid="demo-card-pays"]', (input) => (input as HTMLInputElement).checked)).to.equal(true);
      await page.click('[data-testid="demo-card-declines"]');
      await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="demo-pay"]')]);
      await page.waitForSelector('[data-testid="payment-result"][data-success="true"]');
      await page.close();

      const knex = harness().knex;
      const [payment] = await knex('payments').where({ order_id: orderId, status: 'paid' });
      expect(payment).to.include({ provider: 'demo', save_card: true });
      const items = knex('order_items').select('id').where({ order_id: orderId });
      await renewal.renewDue();
      await waitFor(async () => (await knex('auto_renewals').whereIn('order_item_id', items).first())?.card_last4 === '0002', {
        what: 'the declining demo card saved for renewal',
      });
      expect(await knex('auto_renewals').whereIn('order_item_id', items).first()).to.include({ enabled: true, card_brand: 'demo' });
    });
  }
});
