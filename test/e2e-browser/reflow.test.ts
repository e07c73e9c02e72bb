import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { loginAs, type TestUser } from '../support/agent.js';
import { loggedInPage, navigateStaffArea, openBrowser, type BrowserSession } from '../support/browser.js';
import { harness, useWorker } from '../support/harness.js';
import { buyer as newBuyer, createAccount, createOrder, createPlatform, markPaid, platformJobsSettled } from '../support/shop.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

const ADMIN = 2;

/**
 * The widths a page must fit without scrolling sideways (WCAG 1.4.10, reflow; issue 35 item 1).
 * The zoomed laptop is emulated with a device scale factor: Chromium's 400 % page zoom on a
 * 1280 × 800 window lays the page out in a 320 × 200 CSS px viewport at 4 device pixels a CSS
 * pixel, which is what setViewport gives (the page sees innerWidth 320 and devicePixelRatio 4),
 * without the phone's touch emulation.
 */
const WIDTHS = [
  { name: '320 px', viewport: { width: 320, height: 640 } },
  { name: '390 px', viewport: { width: 390, height: 844 } },
  { name: '1280 px at 400 %', viewport: { width: 1280 / 4, height: 800 / 4, deviceScaleFactor: 4 } },
] as const;

interface Route {
  path: string;
  ready: string;
}

/**
 * Every route in both languages, logged out, as a buyer and as staff, fits 320 px, 390 px and a
 * 1280 px laptop at 400 % zoom: the document is never wider than the window, and the header's
 * menu button stays inside it. Each page loads once per language and state and is measured at
 * each width by resizing the viewport (media queries apply again, and the one layout chosen in
 * script, the admin menu's useIsDesktop, follows its media query's change events; all three
 * widths are below its 48 rem anyway), so the file stays near a minute.
 */
describe('browser: every page reflows to 320 px', function () {
  this.timeout(240_000);
  useWorker();
  let browser: BrowserSession;
  let baseUrl: string;
  let admin: TestUser;
  let buyer: TestUser;
  let platformId: number;
  let plan: { typeId: number; durationId: number };
  let paidOrderId: number;

  before(async function () {
    this.timeout(240_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
    admin = await loginAs('admin');
    buyer = await loginAs('user');
    // A buyer with an active subscription (its credentials on the panel) and a waiting order;
    // the same account and orders fill the staff lists.
    const platform = await createPlatform({ slotsCount: 2 });
    platformId = platform.id;
    plan = { typeId: platform.typeId, durationId: platform.durationId };
    await createAccount(platform.id, 2);
    await platformJobsSettled(platform.id);
    const session = { ...(await newBuyer()), id: buyer.id, email: buyer.email };
    paidOrderId = await createOrder(session, platform);
    await markPaid(paidOrderId);
    await waitFor(async () => (await harness().knex('orders').where({ id: paidOrderId }).first()).state === 2, {
      timeoutMs: 30_000,
      what: 'the order to activate',
    });
    await markPaid(await createOrder(session, await createPlatform({ slotsCount: 2 })));
  });
  after(() => browser?.close());

  const visitorRoutes = (): Route[] => [
    { path: '/', ready: '[data-testid="page-home"]' },
    { path: `/platform/${platformId}`, ready: '[data-testid="page-platform"][data-status="loaded"]' },
    { path: '/login', ready: '[data-testid="page-login"] form' },
    { path: '/register', ready: '[data-testid="page-register"] form' },
    { path: '/support', ready: '[data-testid="page-support"]' },
    { path: '/faq', ready: '[data-testid="page-faq"]' },
    { path: '/howitworks', ready: '[data-testid="page-howitworks"]' },
    ...['termsandconditions', 'privacypolicy', 'aboutus', 'amlpolicy', 'copyrightpolicy', 'refundpolicy'].map((path) => ({
      path: `/${path}`,
      ready: `[data-testid="page-${path}"]`,
    })),
    { path: '/paymentresult/1/0', ready: '[data-testid="page-payment-result"]' },
    { path: '/nothing-here', ready: '[data-testid="page-not-found"]' },
  ];
  const buyerRoutes = (): Route[] => [
    { path: '/', ready: '[data-testid="nav-my-subscriptions"]' },
    { path: `/user/${buyer.id}`, ready: '[data-testid="page-user-panel"][data-status="loaded"]' },
    { path: '/payment', ready: '[data-testid="page-payment"][data-status="ready"]' },
    { path: `/paymentresult/${paidOrderId}/1`, ready: '[data-testid="page-payment-result"]' },
  ];
  const staffRoutes = (): Route[] => [
    { path: '/jve', ready: '[data-testid="admin-home"][data-status="loaded"]' },
    { path: '/jve/orders/2', ready: '[data-testid="admin-orders"][data-status="loaded"]' },
    { path: '/jve/orders/6', ready: '[data-testid="admin-orders"][data-status="loaded"]' },
    { path: '/jve/createsubscriber', ready: '[data-testid="admin-create-subscription"]' },
    { path: '/jve/users', ready: '[data-testid="admin-users"][data-status="loaded"]' },
    { path: `/jve/user/${buyer.id}`, ready: '[data-testid="admin-user"][data-status="loaded"]' },
    { path: '/jve/staff', ready: '[data-testid="admin-staff"][data-status="loaded"]' },
    { path: '/jve/audit', ready: '[data-testid="admin-audit"][data-status="loaded"]' },
    { path: '/jve/health', ready: '[data-testid="admin-health"][data-status="loaded"]' },
    { path: '/jve/outbox', ready: '[data-testid="admin-outbox"][data-status="loaded"]' },
    { path: '/jve/catalog', ready: '[data-testid="admin-catalog"][data-status="loaded"]' },
    { path: `/jve/catalog/${platformId}`, ready: '[data-testid="admin-catalog-form"]' },
    { path: '/jve/nothing-here', ready: '[data-testid="admin-not-found"]' },
  ];

  /** What overflows at the page's current viewport: the document's width, and the menu button's right edge if outside. */
  async function overflow(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const found: string[] = [];
      const root = document.documentElement;
      if (root.scrollWidth > root.clientWidth) {
        // The widest elements that stick out, to say what to fix.
        const culprits = [...document.body.querySelectorAll('*')]
          .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 0.5)
          .slice(0, 3)
          .map(
            (element) =>
              `${element.tagName.toLowerCase()}${element.getAttribute('data-testid') ? `[${element.getAttribute('data-testid')}]` : ''}.${String(element.className).slice(0, 40)} (${Math.round(element.getBoundingClientRect().right)})`,
          );
        found.push(`scrollWidth ${root.scrollWidth} > ${root.clientWidth}: ${culprits.join(', ')}`);
      }
      const menu = document.querySelector('[data-testid="nav-menu-toggle"]');
      if (!menu) found.push('no menu button');
      else {
        const box = menu.getBoundingClientRect();
        if (box.width === 0 || box.left < 0 || box.right > root.clientWidth) found.push(`menu button at ${Math.round(box.left)}–${Math.round(box.right)}`);
      }
      return found;
    });
  }

  /**
   * Opens each of the header's menus (the menu, the currency and the language choosers) with a
   * click, as a visitor would, and notes a panel that is not wholly on screen, or a link or button
   * in it that is not; then closes it again.
   */
  async function headerMenus(page: Page): Promise<string[]> {
    const found: string[] = [];
    for (const [toggle, panel] of [
      ['nav-menu-toggle', 'nav-mobile-menu'],
      ['currency-toggle', 'currency-menu'],
      ['language-toggle', 'language-dialog'],
    ]) {
      // A closed <details> keeps its panel's last layout (Chromium hides it with content-visibility): its open state says whether it shows.
      const open = (summary: string) => page.$eval(`[data-testid="${summary}"]`, (element) => (element.parentElement as HTMLDetailsElement).open);
      await page.click(`[data-testid="${toggle}"]`);
      expect(await open(toggle), `${toggle} opens`).to.equal(true);
      const outside = await page.$eval(`[data-testid="${panel}"]`, (element) => {
        const width = document.documentElement.clientWidth;
        return [element, ...element.querySelectorAll('a, button')]
          .map((part) => ({ part, box: part.getBoundingClientRect() }))
          .filter(({ box }) => box.left < 0 || box.right > width + 0.5)
          .map(({ part, box }) => `${part.getAttribute('data-testid') ?? part.tagName.toLowerCase()} at ${Math.round(box.left)}–${Math.round(box.right)}`);
      });
      if (outside.length > 0) found.push(`${panel} open: ${outside.join(', ')}`);
      for (const problem of await overflow(page)) found.push(`${panel} open: ${problem}`);
      await page.click(`[data-testid="${toggle}"]`);
      expect(await open(toggle), `${toggle} closes`).to.equal(false);
    }
    return found;
  }

  /** Each route from a fresh document, or (`inApp`, the staff area) the first one only and the others through the app's router. */
  async function measure(page: Page, routes: Route[], state: string, found: string[], inApp = false) {
    for (const [index, { path, ready }] of routes.entries()) {
      await page.setViewport(WIDTHS[0].viewport);
      if (inApp && index > 0) await navigateStaffArea(page, path);
      else await page.goto(`${baseUrl}${path}`);
      await page.waitForSelector(ready, { timeout: 30_000 });
      await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
      for (const { name, viewport } of WIDTHS) {
        await page.setViewport(viewport);
        for (const problem of await overflow(page)) found.push(`${state} ${path} at ${name}: ${problem}`);
        // The header is the same on every page: its menus are opened on each state's first one.
        if (index === 0) for (const problem of await headerMenus(page)) found.push(`${state} ${path} at ${name}: ${problem}`);
      }
    }
  }

  for (const language of ['en', 'ko'] as const) {
    it(`${language === 'en' ? 'English' : 'Korean'}: no page scrolls sideways and the menu button is on screen`, async () => {
      const found: string[] = [];
      const visitor = await loggedInPage(browser, baseUrl, undefined, { language });
      await measure(visitor, visitorRoutes(), 'visitor', found);
      await visitor.close();

      const buyerPage = await loggedInPage(browser, baseUrl, buyer, { language });
      await buyerPage.evaluate((selection) => sessionStorage.setItem('subshare.selection', JSON.stringify(selection)), { platformId, ...plan });
      await measure(buyerPage, buyerRoutes(), 'buyer', found);
      await buyerPage.close();

      const staff = await loggedInPage(browser, baseUrl, admin, { role: ADMIN, language });
      // Through the app's router: a load of the staff area's code costs Chromium more than the checks.
      await measure(staff, staffRoutes(), 'staff', found, true);
      await staff.close();
      expect(found.join('\n')).to.equal('');
    });
  }
});
