import { expect } from 'chai';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { loginAs, type TestUser } from '../support/agent.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { harness } from '../support/harness.js';
import { ensureWebBuilt } from '../support/web-build.js';

type Failure = { status: number } | 'network';

/**
 * Issue 24: "Try again" is offered only for a failure that may pass (no answer, a 5xx such as the
 * 503 of a database outage), not for a 4xx refusal, which the same request meets again. Checked
 * where a buyer meets it (the payment page's order, the panel) and where staff do (the catalog).
 */
describe('browser: "Try again" only for a temporary failure', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let buyer: TestUser;
  let admin: TestUser;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
    buyer = await loginAs('user');
    admin = await loginAs('admin');
  });
  after(async () => {
    await browser?.close();
  });

  /** Answers every call to `path` with the failure (a JSON error body, or no answer at all). */
  async function failing(page: Page, path: string, failure: Failure) {
    await page.setRequestInterception(true);
    page.on('request', (request: HTTPRequest) => {
      if (!new URL(request.url()).pathname.startsWith(path)) return void request.continue();
      if (failure === 'network') return void request.abort('connectionrefused');
      void request.respond({ status: failure.status, contentType: 'application/json', body: JSON.stringify({ message: 'refused here', code: 'test' }) });
    });
  }

  const CASES: Array<[Failure, boolean]> = [
    [{ status: 400 }, false],
    [{ status: 404 }, false],
    [{ status: 503 }, true],
    [{ status: 500 }, true],
    ['network', true],
  ];

  for (const [failure, retry] of CASES) {
    const name = failure === 'network' ? 'no answer' : String(failure.status);
    it(`${name}: ${retry ? 'offers' : 'does not offer'} "Try again" on the payment page, the panel and the catalog list`, async () => {
      const payment = await loggedInPage(browser, baseUrl, buyer);
      await payment.evaluate(() => sessionStorage.setItem('subshare.selection', JSON.stringify({ platformId: 1, typeId: 1, durationId: 1 })));
      await failing(payment, '/api/order/insert', failure);
      await payment.goto(`${baseUrl}/payment`);
      await payment.waitForSelector('[data-testid="page-payment"][data-status="failed"] [data-testid="payment-failed"]');
      expect(Boolean(await payment.$('[data-testid="payment-retry"]')), 'payment retry').to.equal(retry);
      expect(Boolean(await payment.$('[data-testid="payment-back-home"]')), 'payment back to the shop').to.equal(true);
      await payment.close();

      // The panel: a 404 is its own "no such panel" page, not a failure with or without a retry.
      if (failure === 'network' || failure.status !== 404) {
        const panel = await loggedInPage(browser, baseUrl, buyer);
        await failing(panel, '/api/user/getuserpanel', failure);
        await panel.goto(`${baseUrl}/user/${buyer.id}`);
        await panel.waitForSelector('[data-testid="panel-failed"]');
        expect(Boolean(await panel.$('[data-testid="panel-retry"]')), 'panel retry').to.equal(retry);
        await panel.close();
      }

      const catalog = await loggedInPage(browser, baseUrl, admin, { role: 2 });
      await failing(catalog, '/api/catalog/platforms', failure);
      await catalog.goto(`${baseUrl}/jve/catalog`);
      await catalog.waitForSelector('[data-testid="admin-catalog"][data-status="failed"]');
      const retryButton = await catalog.$$eval('[data-testid="admin-catalog"] [role="alert"] button', (buttons) => buttons.length);
      expect(retryButton, 'catalog retry').to.equal(retry ? 1 : 0);
      await catalog.close();
    });
  }
});
