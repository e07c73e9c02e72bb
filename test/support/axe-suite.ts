import { createRequire } from 'node:module';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { loginAs, type TestUser } from './agent.js';
import { loggedInPage, navigateStaffArea, openBrowser, type BrowserSession } from './browser.js';
import { harness, useWorker } from './harness.js';
import { createAccount, createOrder, createPlatform, markPaid, platformJobsSettled } from './shop.js';
import { waitFor } from './wait.js';
import { ensureWebBuilt } from './web-build.js';

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const ROLE = { user: 0, admin: 2 } as const;

/** A page state: its address, what shows it is ready, and what a visitor then does to reach the state (a click…). */
interface AxePage {
  path: string;
  ready: string;
  act?: (page: Page) => Promise<void>;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** axe-core's violations on the page as it is now (all rules that are not experimental, and label-in-name). The page must bypass CSP from before it loaded. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // The shop's Content-Security-Policy refuses inline scripts, which is how axe is added.
  await page.setBypassCSP(true);
  // Added once a document: a page moved by its router (navigateInApp) keeps it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    // Also the experimental label-in-name rule (WCAG 2.5.3): a speech user says the words they see.
    const result = await axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

/**
 * Issue 24: axe-core finds no violation on any buyer or staff page that is not a storefront
 * catalog page (those have their own checks): login, register, payment, the payment result, the
 * panel and every /jve page, at desktop and phone widths, in English and Korean. All of axe's
 * rules that are not experimental run (WCAG 2.x A and AA, and its best practices).
 *
 * One suite a viewport and language (test/e2e-browser/axe-<viewport>-<language>.test.ts): test
 * files are what run in parallel, and each takes over a minute.
 */
export function describeAxe(viewportName: string, viewport: { width: number; height: number }, language: 'en' | 'ko'): void {
  useWorker();
  describe(`browser: axe-core on the buyer and staff pages (${viewportName}, ${language})`, function () {
    this.timeout(240_000);
    let browser: BrowserSession;
    let baseUrl: string;
    let admin: TestUser;
    let buyer: TestUser;
    let paidOrderId: number;
    let platformId: number;

    before(async function () {
      this.timeout(240_000);
      ensureWebBuilt();
      baseUrl = await harness().baseUrl();
      browser = await openBrowser();
      admin = await loginAs('admin');
      buyer = await loginAs('user');
      // The panel and the user page with an active subscription, its credentials and a waiting order.
      const platform = await createPlatform({ slotsCount: 2 });
      platformId = platform.id;
      await createAccount(platform.id, 2);
      // Two accounts: /jve/health shows one card each, whose regions must be told apart.
      await createAccount(platform.id, 2);
      await platformJobsSettled(platform.id);
      const session = {
        id: buyer.id,
        email: buyer.email,
        name: 'Test User',
        photoUrl: null,
        role: 0 as const,
        isEmailVerified: true,
        languageId: 1 as const,
        sessionId: 'axe',
      };
      paidOrderId = await createOrder(session, platform);
      await markPaid(paidOrderId);
      await waitFor(async () => (await harness().knex('orders').where({ id: paidOrderId }).first()).state === 2, {
        timeoutMs: 30_000,
        what: 'the order to activate',
      });
      const waiting = await createPlatform({ slotsCount: 2 });
      await markPaid(await createOrder(session, waiting));
    });
    after(async () => {
      await browser?.close();
    });

    async function settled(page: Page, ready: string) {
      await page.waitForSelector(ready, { timeout: 30_000 });
      await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
      // Late requests (a lazy chunk, a second list call) settle; a page that polls never idles, which is fine.
      await page.waitForNetworkIdle({ idleTime: 250, timeout: 5_000 }).catch(() => undefined);
      // A control that was just enabled fades in (Chakra's transitions): contrast is judged once it is there,
      // not mid-fade (a loaded machine saw /jve/users' Refresh at the disabled opacity).
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            // A spinner turns for ever: only what ends is awaited.
            .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
      );
    }

    const staffPages = (): AxePage[] => [
      { path: '/jve', ready: '[data-testid="page-admin"]' },
      { path: '/jve/orders/2', ready: '[data-testid="admin-orders"][data-status="loaded"]' },
      { path: '/jve/orders/6', ready: '[data-testid="admin-orders"][data-status="loaded"]' },
      { path: '/jve/orders/5', ready: '[data-testid="admin-orders"][data-status="loaded"]' },
      { path: '/jve/orders/7', ready: '[data-testid="admin-orders-unknown"]' },
      { path: '/jve/createsubscriber', ready: '[data-testid="page-admin"]' },
      { path: '/jve/users', ready: '[data-testid="admin-users"][data-status="loaded"]' },
      { path: `/jve/user/${buyer.id}`, ready: '[data-testid="page-admin"]' },
      {
        path: `/jve/user/${buyer.id}`,
        ready: '[data-testid="admin-user"][data-status="loaded"] [data-testid="admin-item-replace"]',
        // Replace's confirmation, open.
        act: async (page: Page) => {
          await page.click('[data-testid="admin-item-replace"]');
          await page.waitForSelector('[data-testid="admin-item-replace-confirm"]', { visible: true });
        },
      },
      { path: '/jve/staff', ready: '[data-testid="admin-staff"][data-status="loaded"]' },
      { path: '/jve/promos', ready: '[data-testid="admin-promos"][data-status="loaded"]' },
      { path: '/jve/audit', ready: '[data-testid="admin-audit"][data-status="loaded"]' },
      { path: '/jve/outbox', ready: '[data-testid="page-admin"]' },
      {
        path: '/jve/outbox',
        ready: '[data-testid="admin-outbox"][data-status="loaded"] [data-testid="admin-outbox-preview"]',
        // An e-mail's preview, whose body scrolls in a box of its own.
        act: async (page: Page) => {
          await page.click('[data-testid="admin-outbox-preview"]');
          await page.waitForSelector('[data-testid="admin-outbox-preview-panel"][data-status="loaded"]');
        },
      },
      { path: '/jve/health', ready: '[data-testid="admin-health"][data-status="loaded"] [data-testid="admin-health-account"]' },
      { path: '/jve/catalog', ready: '[data-testid="admin-catalog"][data-status="loaded"]' },
      { path: '/jve/catalog/new', ready: '[data-testid="admin-catalog-form"]' },
      { path: `/jve/catalog/${platformId}`, ready: '[data-testid="admin-catalog-form"]' },
      { path: '/jve/nothing-here', ready: '[data-testid="admin-not-found"]' },
    ];
    const buyerPages = (): AxePage[] => [
      { path: `/user/${buyer.id}`, ready: '[data-testid="page-user-panel"][data-status="loaded"]' },
      { path: '/payment', ready: '[data-testid="page-payment"][data-status="ready"]' },
      {
        path: '/payment',
        ready: '[data-testid="page-payment"][data-status="ready"]',
        // "Have a code?" open, with a refused code's reason under the field (issue 37).
        act: async (page: Page) => {
          await page.click('[data-testid="payment-promo-toggle"]');
          await page.type('[data-testid="payment-promo-input"]', 'NOSUCHCODE');
          await page.click('[data-testid="payment-promo-apply"]');
          await page.waitForFunction(() => (document.querySelector('[data-testid="payment-promo-error"]')?.textContent ?? '') !== '');
        },
      },
      { path: `/paymentresult/${paidOrderId}/1`, ready: '[data-testid="page-payment-result"]' },
    ];
    const visitorPages = (): AxePage[] => [
      { path: '/login', ready: '[data-testid="page-login"] form' },
      {
        path: '/login',
        ready: '[data-testid="login-step"][data-step="check"]',
        // The password step, with the chosen e-mail and its "Change" button.
        act: async (page: Page) => {
          await page.type('[data-testid="login-email"]', buyer.email);
          await page.click('[data-testid="login-continue"]');
          await page.waitForSelector('[data-testid="login-step"][data-step="login"] [data-testid="login-change-email"]', { visible: true });
        },
      },
      { path: '/register', ready: '[data-testid="page-register"] form' },
    ];

    it(`${viewportName}, ${language}: no violations`, async () => {
      const found: string[] = [];
      /** How a page reaches a state: a fresh document, or (staff) the app's router from the state before. */
      type Visit = 'load' | 'in-app';
      const check = async (page: Page, { path, ready, act }: AxePage, visit: Visit = 'load') => {
        if (visit === 'load') {
          await page.setBypassCSP(true);
          await page.goto(`${baseUrl}${path}`);
        } else {
          await navigateStaffArea(page, path);
        }
        await settled(page, ready);
        if (act) await act(page);
        for (const violation of await axeViolations(page)) {
          found.push(
            `${path}${act ? ' (after its action)' : ''}: ${violation.id} (${violation.impact}) ${violation.help} — ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`,
          );
        }
      };
      const visitor = await loggedInPage(browser, baseUrl, undefined, { language, viewport });
      for (const state of visitorPages()) await check(visitor, state);
      await visitor.close();

      const buyerPage = await loggedInPage(browser, baseUrl, buyer, { language, viewport });
      await buyerPage.evaluate(() => sessionStorage.setItem('subshare.selection', JSON.stringify({ platformId: 1, typeId: 1, durationId: 1 })));
      for (const state of buyerPages()) await check(buyerPage, state);
      await buyerPage.close();

      const staff = await loggedInPage(browser, baseUrl, admin, { role: ROLE.admin, language, viewport });
      // The first staff state from a fresh document, the others through the app's router: the 17
      // loads of the staff area's code took over a third of the file's CPU (phone, ko, measured on
      // 2026-12-06: 30 CPU-seconds, all processes, 19 this way). Visitor and buyer pages load afresh.
      for (const [index, state] of staffPages().entries()) await check(staff, state, index === 0 ? 'load' : 'in-app');
      await staff.close();
      expect(found).to.deep.equal([]);
    });
  });
}
