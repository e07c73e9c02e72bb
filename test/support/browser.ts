/**
 * Debian's Chromium driven by puppeteer-core. A mocha worker process launches one browser and
 * keeps it for every test file it runs (a launch costs half a CPU-second and a second or two of
 * wall time, and a run has forty browser files); each file's session opens every page in an
 * incognito context of its own, so stored logins, languages, caches and cookies never leak
 * between pages or files, and closes its contexts when it ends. The browser goes with the process.
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface BrowserSession {
  browser: Browser;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** Closes the session's pages and contexts (the process's browser stays for the next file). */
  close(): Promise<void>;
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };

let launched: Promise<Browser> | undefined;

async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'subshare-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
    ],
  });
  // puppeteer kills the browser when this process exits (its own 'exit' listener, added first);
  // the profile goes after it. A browser that crashed is launched again by the next session.
  const removeProfile = () => {
    try {
      rmSync(profile, { recursive: true, force: true });
    } catch {
      // a temporary directory: the system's cleaning takes what a dying browser still wrote
    }
  };
  process.once('exit', removeProfile);
  browser.once('disconnected', removeProfile);
  return browser;
}

/** The process's browser, launched on first use (and again if it has gone). */
async function processBrowser(): Promise<Browser> {
  const current = await launched?.catch(() => undefined);
  if (current?.connected) return current;
  launched = launch();
  return launched;
}

export async function openBrowser(): Promise<BrowserSession> {
  const browser = await processBrowser();
  const contexts = new Set<BrowserContext>();
  return {
    browser,
    /** A page in a fresh incognito context: no stored login, language or return URL. */
    async newPage(viewport = DESKTOP) {
      const context = await browser.createBrowserContext();
      contexts.add(context);
      const page = await context.newPage();
      page.once('close', () => {
        contexts.delete(context);
        void context.close().catch(() => undefined);
      });
      await page.setViewport(viewport);
      return page;
    },
    async close() {
      const open = [...contexts];
      contexts.clear();
      await Promise.all(open.map((context) => context.close().catch(() => undefined)));
    },
  };
}

export interface LoggedInPageOptions {
  /** The stored role: 0 user (default), 1 moderator, 2 admin. */
  role?: number;
  language?: 'en' | 'ko';
  /** Stored as the storefront's chosen currency when given. */
  currency?: string;
  viewport?: { width: number; height: number };
}

/**
 * A fresh incognito page in a language (Accept-Language and the stored language id), logged in
 * as `user` when given, stored as the login page stores it; the page is left on /robots.txt.
 */
export async function loggedInPage(
  session: BrowserSession,
  baseUrl: string,
  user: { id: number; token: string; email: string } | undefined,
  options: LoggedInPageOptions = {},
): Promise<Page> {
  const { role = 0, language = 'en', currency, viewport = DESKTOP } = options;
  const page = await session.newPage(viewport);
  await page.evaluateOnNewDocument(recordSnackbars);
  await page.setExtraHTTPHeaders({ 'Accept-Language': language === 'ko' ? 'ko-KR,ko;q=0.9' : 'en-GB,en;q=0.9' });
  await page.goto(`${baseUrl}/robots.txt`);
  const login = user && {
    id: user.id,
    token: user.token,
    tokenExpiration: new Date(Date.now() + 2 * 24 * 3600_000).toISOString(),
    photoUrl: null,
    role,
    isEmailVerified: true,
    email: user.email,
  };
  await page.evaluate(
    (stored, languageId, chosenCurrency) => {
      if (stored) localStorage.setItem('subshare.user', stored);
      localStorage.setItem('subshare.languageId', languageId);
      if (chosenCurrency) localStorage.setItem('subshare.currency', chosenCurrency);
    },
    login ? JSON.stringify(login) : '',
    language === 'ko' ? '2' : '1',
    currency ?? '',
  );
  return page;
}

/**
 * Moves the web app in `page` to `path` as its router moves on the browser's Back button (a
 * popstate): the same document, so the app is not downloaded, compiled and started again (a fresh
 * load of the staff area costs Chromium about 0.6 CPU-second: the axe suite's 17 staff loads took
 * 11). Answers once the address is `path`; the caller waits for what shows the page is there.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForFunction((to) => location.pathname === to, {}, path);
}

/** The staff area's page for an unknown address. */
const STAFF_NOT_FOUND_PATH = '/jve/nothing-here';

/**
 * Moves a page of the staff area (/jve) to `path` through the app's router, by way of the area's
 * not-found page: the page's own section mounts afresh, as on a load, rather than showing the
 * previous page's data while its own loads. The caller waits for what shows the page is there.
 */
export async function navigateStaffArea(page: Page, path: string): Promise<void> {
  const notFound = '[data-testid="admin-not-found"]';
  await navigateInApp(page, STAFF_NOT_FOUND_PATH);
  await page.waitForSelector(notFound, { timeout: 30_000 });
  if (path === STAFF_NOT_FOUND_PATH) return;
  await navigateInApp(page, path);
  // The page has replaced the not-found section (a ready selector such as the area's frame would
  // otherwise match before the page rendered).
  await page.waitForSelector(notFound, { hidden: true, timeout: 30_000 });
}

declare global {
  interface Window {
    /** Every snackbar the document has shown, as `tone message`, oldest first (see recordSnackbars). */
    shownSnackbars?: string[];
  }
}

/**
 * Runs in the page before its own scripts: writes down every snackbar as it appears. The shell
 * hides a snackbar after 3 s, so a test that looks for it when asked can miss it on a loaded
 * machine (a CI run did: the save's message came and went while the test waited for the
 * address to change). A mutation observer runs in the page's own microtasks, whatever the test
 * process is doing.
 */
function recordSnackbars() {
  const shown: string[] = (window.shownSnackbars = []);
  const seen = new WeakMap<Element, string>();
  new MutationObserver(() => {
    for (const snackbar of document.querySelectorAll('[data-testid="snackbar"]')) {
      const entry = `${snackbar.getAttribute('data-tone')} ${snackbar.querySelector('[data-testid="snackbar-message"]')?.textContent ?? ''}`;
      if (seen.get(snackbar) === entry) continue;
      seen.set(snackbar, entry);
      shown.push(entry);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
}

/**
 * Waits until the page has shown a snackbar of this tone with exactly this message, even one
 * already hidden again, and takes it off the record so that the next wait for the same message
 * needs a new one. Pages from loggedInPage record from their first navigation.
 */
export async function snackbarShown(page: Page, message: string, tone: 'info' | 'error' = 'info'): Promise<void> {
  await page.waitForFunction(
    (expected) => {
      const index = window.shownSnackbars?.indexOf(expected) ?? -1;
      if (index >= 0) window.shownSnackbars!.splice(index, 1);
      return index >= 0;
    },
    { polling: 50 },
    `${tone} ${message}`,
  );
}

/**
 * Closes the snackbar with its close action. The shell also hides it after 3 s, so on a busy
 * machine it may go between finding the button and clicking it: gone either way is closed.
 */
export async function closeSnackbar(page: Page): Promise<void> {
  await page.click('[data-testid="snackbar-close"]').catch((error: Error) => {
    if (!/detached|No element found|not clickable/i.test(error.message)) throw error;
  });
  await page.waitForSelector('[data-testid="snackbar"]', { hidden: true });
}

/** The currency the navigation bar's chooser shows as chosen. */
export async function shownCurrency(page: Page): Promise<string> {
  await page.waitForSelector('[data-testid="currency-toggle"]');
  return page.$eval('[data-testid^="currency-option-"][aria-current="true"]', (option) => (option as HTMLButtonElement).value);
}

/** Chooses a currency with the navigation bar's chooser: open it, pick the option. */
export async function chooseCurrency(page: Page, code: string): Promise<void> {
  await page.click('[data-testid="currency-toggle"]');
  await page.waitForSelector(`[data-testid="currency-option-${code}"]`, { visible: true });
  await page.click(`[data-testid="currency-option-${code}"]`);
}
