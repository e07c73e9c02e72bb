/**
 * A submitted login always completes (issue 35). On a 4× throttled phone, a buyer opens a platform
 * page directly, taps "Go to payment" at a random moment while it loads, and logs in, each step
 * tapped at a random moment while the login page and its chunk arrive and hydrate. Was: under load,
 * the login request answered 200 but the page stayed on the password step, logged out, because a
 * re-opened login page cancelled the visit's task with the request in it.
 *
 * `npm test` makes LOGIN_RACE_TRIES (default 2) journeys per language; `npm run test:login-race`
 * makes 20. Each try logs its moments, so a failure can be replayed with LOGIN_RACE_SEED.
 */
import { expect } from 'chai';
import type { ElementHandle, Page } from 'puppeteer-core';
import { createUser, uniqueIp } from '../support/agent.js';
import { openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { harness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

const TRIES = Number(process.env.LOGIN_RACE_TRIES) || 2;
/** How long one step may take on a throttled phone (a navigation and a chunk included). */
const STEP_MS = 30_000;

/** A small seeded generator (mulberry32), so a failing try can be replayed. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('browser: a submitted login always completes, tapped at random moments on a throttled phone', function () {
  this.timeout(STEP_MS * 5 * TRIES + 60_000);
  let browser: BrowserSession;
  let baseUrl: string;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
  });
  after(() => browser?.close());

  /** Waits for the element, then taps it: a tap that did nothing yet (the script not there) is repeated until `done`. */
  async function tapUntil(page: Page, selector: string, done: () => Promise<boolean>): Promise<void> {
    const until = Date.now() + STEP_MS;
    while (Date.now() < until) {
      // A navigation may replace the document under any of these steps: then look again.
      const element = (await page.$(selector).catch(() => null)) as ElementHandle<Element> | null;
      if (element && (await element.isVisible().catch(() => false))) await element.tap().catch(() => undefined);
      if (await done().catch(() => false)) return;
      await pause(150);
    }
    expect.fail(`${selector}: no effect within ${STEP_MS} ms`);
  }

  const onStep = (page: Page, step: string) => () => page.$(`[data-testid="login-step"][data-step="${step}"]`).then((found) => found !== null);

  /** Where a journey is, for the message of a try that fails. */
  const at = { step: '', where: '' };

  async function journey(lang: 'en' | 'ko', seed: number): Promise<void> {
    const random = randomFrom(seed);
    at.step = 'opening';
    const user = await createUser({ verified: true, languageId: lang === 'en' ? 1 : 2 });
    const page = await browser.newPage(PHONE);
    try {
      await page.setViewport({ ...PHONE, isMobile: true, hasTouch: true });
      await page.emulateCPUThrottling(4);
      // Each journey from its own address: 40 logins from one would meet the shop's limit of 30 per
      // address in 15 minutes (429, shown on the password step), which is not what this test is about.
      await page.setExtraHTTPHeaders({ 'Accept-Language': lang === 'en' ? 'en-US,en;q=0.9' : 'ko-KR,ko;q=0.9', 'X-Forwarded-For': uniqueIp() });

      // Opened directly, not by client navigation; "Go to payment" tapped while the page loads.
      const loading = page.goto(`${baseUrl}/platform/1`, { waitUntil: 'load', timeout: STEP_MS }).catch(() => undefined);
      await pause(random() * 1_500);
      at.step = 'Go to payment';
      await tapUntil(page, '[data-testid="platform-go-to-payment"]', async () => page.evaluate(() => location.pathname === '/login'));
      await loading;

      // The e-mail, then the password, each typed and submitted at a random moment of the login page's load.
      at.step = 'the e-mail field';
      await page.waitForSelector('[data-testid="login-email"]', { visible: true, timeout: STEP_MS });
      await pause(random() * 600);
      await (await page.$('[data-testid="login-email"]'))!.type(user.email);
      at.step = 'Continue to the password step';
      await tapUntil(page, '[data-testid="login-continue"]', onStep(page, 'login'));
      await page.waitForSelector('[data-testid="login-password"]', { visible: true, timeout: STEP_MS });
      await pause(random() * 300);
      await (await page.$('[data-testid="login-password"]'))!.type(user.password);
      const submit = await page.waitForSelector('[data-testid="login-submit"]', { visible: true, timeout: STEP_MS });
      await submit!.tap();
      at.step = 'the login, on to /payment';

      // Once submitted, the login completes: logged in and on the way to payment, never back on a step.
      await page.waitForFunction(() => location.pathname === '/payment', { timeout: STEP_MS });
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('subshare.user') ?? 'null') as { id?: number } | null);
      expect(stored?.id, 'logged in').to.equal(user.id);
      at.step = 'the payment page ready';
      await page.waitForSelector('[data-testid="page-payment"][data-status="ready"]', { timeout: STEP_MS });
    } finally {
      at.where = await page
        .evaluate(
          () =>
            `${location.pathname}${location.search}, login step ${document.querySelector('[data-testid="login-step"]')?.getAttribute('data-step') ?? 'none'}`,
        )
        .catch(() => 'unknown');
      await page.close();
    }
  }

  // The visit re-opened under a login in flight (as a re-mount does): was lost, the page back on
  // its first step and the buyer logged out although the server had said yes.
  it('a login whose page is left and re-opened while its answer is on its way still completes', async () => {
    const user = await createUser({ verified: true });
    const page = await browser.newPage();
    try {
      await page.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
      await (await page.waitForSelector('[data-testid="platform-go-to-payment"]', { visible: true }))!.click();
      await page.waitForSelector('[data-testid="login-step"][data-step="check"]', { visible: true });
      await (await page.$('[data-testid="login-email"]'))!.type(user.email);
      await page.click('[data-testid="login-continue"]');
      await page.waitForSelector('[data-testid="login-password"]', { visible: true });
      await (await page.$('[data-testid="login-password"]'))!.type(user.password);

      // The answer to the login is held until the page has been left and opened again.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held = false;
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        if (request.url().endsWith('/api/user/authenticate')) {
          held = true;
          void released.then(() => request.continue());
        } else void request.continue();
      });
      await page.click('[data-testid="login-submit"]');
      await waitFor(() => held, { timeoutMs: STEP_MS, intervalMs: 20, what: 'the login request, held' });
      await page.goBack();
      await page.waitForFunction(() => location.pathname === '/platform/1', { timeout: STEP_MS });
      await page.goForward();
      await page.waitForFunction(() => location.pathname === '/login', { timeout: STEP_MS });
      release();

      await page.waitForFunction(() => location.pathname === '/payment', { timeout: STEP_MS });
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('subshare.user') ?? 'null') as { id?: number } | null);
      expect(stored?.id, 'logged in').to.equal(user.id);
    } finally {
      await page.close();
    }
  });

  for (const lang of ['en', 'ko'] as const) {
    it(`in ${lang === 'en' ? 'English' : 'Korean'}: ${TRIES} logins from a platform page, each ending logged in on the payment page`, async () => {
      const first = Number(process.env.LOGIN_RACE_SEED) || Date.now();
      for (let attempt = 0; attempt < TRIES; attempt += 1) {
        const seed = first + attempt;
        try {
          await journey(lang, seed);
        } catch (error) {
          const where = at.where;
          throw new Error(`try ${attempt + 1} (LOGIN_RACE_SEED=${seed}), at ${at.step}, on ${where}: ${(error as Error).message}`, { cause: error });
        }
      }
    });
  }
});
