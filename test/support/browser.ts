/**
 * Debian's Chromium driven by puppeteer-core. Each test file gets its own browser with a fresh
 * profile and each page its own incognito context, so stored logins and languages never leak.
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface BrowserSession {
  browser: Browser;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };

export async function openBrowser(): Promise<BrowserSession> {
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
  return {
    browser,
    /** A page in a fresh incognito context: no stored login, language or return URL. */
    async newPage(viewport = DESKTOP) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      page.once('close', () => void context.close().catch(() => undefined));
      await page.setViewport(viewport);
      return page;
    },
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
