/**
 * One rendering (issue 14): the server renders the storefront with React and the browser
 * hydrates that markup. Every storefront page, in both languages and at phone and desktop
 * width, must hydrate without a single React hydration warning or recoverable error (any
 * console error fails), without asking the API again for what the page came with, and the
 * hydrated page must be the server's page: the same elements, then live.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { harness } from '../support/harness.js';
import { DESKTOP, openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

const PAGES = [
  '/',
  '/platform/1',
  '/platform/999999',
  '/no/such/page',
  '/support',
  '/faq',
  '/howitworks',
  '/aboutus',
  '/termsandconditions',
  '/privacypolicy',
  '/amlpolicy',
  '/copyrightpolicy',
  '/refundpolicy',
];
/** What a rendered page already holds: asking for it again is a wasted request. */
const HELD = /\/api\/(main\/home|platform\/getplatform|main\/business|main\/getcountry)\b/;

interface Visit {
  serverTestIds: string[];
  consoleProblems: string[];
  repeated: string[];
}

async function visit(page: Page, url: string): Promise<Visit> {
  const consoleProblems: string[] = [];
  const repeated: string[] = [];
  page.on('console', (message) => {
    // A not-found page is answered with status 404: the browser reports the document itself.
    if (message.location().url === url && /status of 404/.test(message.text())) return;
    if (message.type() === 'error' || message.type() === 'warn') consoleProblems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleProblems.push(`pageerror: ${error instanceof Error ? error.message : String(error)}`));
  page.on('request', (request) => {
    if (HELD.test(request.url())) repeated.push(request.url());
  });
  const response = await page.goto(url, { waitUntil: 'networkidle0' });
  const html = (await response?.text()) ?? '';
  const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('</body>'));
  const serverTestIds = [...root.matchAll(/data-testid="([^"]+)"/g)].map((match) => match[1]!);
  // Hydration commits in slices after the scripts ran; the marker is set once the root has.
  await page.waitForSelector('html[data-hydrated]', { timeout: 15_000 });
  await page.waitForNetworkIdle({ idleTime: 300 });
  return { serverTestIds, consoleProblems, repeated };
}

describe('browser: the storefront is rendered by the server and hydrated', function () {
  this.timeout(180_000);
  let browser: BrowserSession;
  let baseUrl: string;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
  });
  after(() => browser?.close());

  for (const [lang, viewport, name] of [
    ['en', DESKTOP, 'desktop'],
    ['ko', PHONE, 'phone'],
  ] as const) {
    it(`hydrates every storefront page without a warning or a repeated request (${lang}, ${name})`, async () => {
      for (const path of PAGES) {
        const page = await browser.newPage(viewport);
        try {
          const { serverTestIds, consoleProblems, repeated } = await visit(page, `${baseUrl}${path}?lang=${lang}`);
          expect(serverTestIds, `${path}: the server rendered the page`).to.include.members(['skip-link', 'currency-select', 'language-toggle']);
          expect(
            serverTestIds.some((id) => id.startsWith('page-')),
            `${path}: a page root`,
          ).to.equal(true);
          expect(consoleProblems, `${path}: console`).to.deep.equal([]);
          expect(repeated, `${path}: asked again for what the page holds`).to.deep.equal([]);
          // The hydrated DOM is the server's: every element it sent is still there, once or as often.
          const clientTestIds = await page.$$eval('#root [data-testid]', (elements) => elements.map((element) => element.getAttribute('data-testid')!));
          for (const id of new Set(serverTestIds)) {
            expect(clientTestIds.filter((other) => other === id).length, `${path}: ${id}`).to.equal(serverTestIds.filter((other) => other === id).length);
          }
          expect(await page.$eval('html', (element) => element.lang), path).to.equal(lang);
        } finally {
          await page.close();
        }
      }
    });
  }

  it('is live once hydrated: the platform page changes price, the FAQ opens, the language dialog opens', async () => {
    const page = await browser.newPage(PHONE);
    try {
      const { consoleProblems } = await visit(page, `${baseUrl}/platform/1?lang=en`);
      const before = await page.$eval('[data-testid="platform-sale-price"]', (element) => element.textContent);
      const options = await page.$$('[data-testid="duration-option"]');
      expect(options.length).to.be.above(1);
      await options[options.length - 1]!.click();
      await page.waitForFunction((old) => document.querySelector('[data-testid="platform-sale-price"]')?.textContent !== old, {}, before);
      await page.click('[data-testid="language-toggle"]');
      await page.waitForSelector('[data-testid="language-dialog"]', { visible: true });
      expect(consoleProblems).to.deep.equal([]);
    } finally {
      await page.close();
    }
  });

  it('renders a logged-in visitor logged out on the server, then shows their account once hydrated, without a warning', async () => {
    const page = await browser.newPage(DESKTOP);
    try {
      await page.evaluateOnNewDocument(() => {
        localStorage.setItem(
          'subshare.user',
          JSON.stringify({
            id: 77,
            token: 'x',
            tokenExpiration: new Date(Date.now() + 3_600_000).toISOString(),
            photoUrl: null,
            role: 0,
            isEmailVerified: true,
          }),
        );
      });
      const { serverTestIds, consoleProblems } = await visit(page, `${baseUrl}/?lang=en`);
      expect(serverTestIds).to.include('nav-login');
      await page.waitForSelector('[data-testid="nav-my-subscriptions"]');
      expect(await page.$('[data-testid="nav-login"]')).to.equal(null);
      expect(consoleProblems).to.deep.equal([]);
    } finally {
      await page.close();
    }
  });
});
