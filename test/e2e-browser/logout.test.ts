import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { loginAs } from '../support/agent.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { harness } from '../support/harness.js';
import { ensureWebBuilt } from '../support/web-build.js';

const ROLE = { user: 0, admin: 2 } as const;

/**
 * Spec section 4: log-out "clears the token, resets the return URL to '/' and goes home", from
 * any page. Before the fix, logging out from a guarded page (the panel, /jve/orders/2) let the
 * page's own guard see the logged-out visitor first: it stored the page as the return URL and
 * sent the tab to /login, so the next person to log in there landed on someone else's panel.
 */
describe('browser: log out resets the return URL and goes home', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  async function logOutFrom(page: Page, path: string, ready: string) {
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector(ready);
    await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
    await page.click('[data-testid="nav-logout"]');
    // Wherever the tab goes (home, or /login as before the fix), the page it lands on has settled.
    await page.waitForFunction((from) => location.pathname !== from && !document.querySelector('[data-testid="nav-logout"]'), {}, path);
    await page.waitForSelector('main');
    return {
      path: new URL(page.url()).pathname,
      returnUrl: await page.evaluate(() => sessionStorage.getItem('subshare.returnUrl')),
      stored: await page.evaluate(() => localStorage.getItem('subshare.user')),
    };
  }

  it('from My subscriptions: home, return URL "/", token gone', async () => {
    const buyer = await loginAs('user');
    const page = await loggedInPage(browser, baseUrl, buyer, { role: ROLE.user });
    const after = await logOutFrom(page, `/user/${buyer.id}`, '[data-testid="nav-logout"]');
    expect(after).to.deep.equal({ path: '/', returnUrl: '/', stored: null });
    await page.close();
  });

  it('from an admin list (/jve/orders/2): home, return URL "/", token gone', async () => {
    const admin = await loginAs('admin');
    const page = await loggedInPage(browser, baseUrl, admin, { role: ROLE.admin });
    const after = await logOutFrom(page, '/jve/orders/2', '[data-testid="nav-logout"]');
    expect(after).to.deep.equal({ path: '/', returnUrl: '/', stored: null });
    await page.close();
  });
});
