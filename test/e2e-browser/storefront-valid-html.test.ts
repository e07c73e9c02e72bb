/**
 * Valid, accessible storefront pages (issues 24 and 27): the HTML the server sends for every
 * storefront page has 0 errors under html-validate's `html-validate:standard` preset, and
 * axe-core finds 0 violations on each page once hydrated, on a desktop and a 390×844 phone, in
 * English and Korean, with the menus and FAQ answers open too.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { HtmlValidate, type Message } from 'html-validate';
import type { Page } from 'puppeteer-core';
import { harness } from '../support/harness.js';
import { DESKTOP, openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const PAGES = [
  '/',
  '/platform/1',
  '/platform/2?duration=3',
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

const describeMessage = (message: Message) => `${message.line}:${message.column} ${message.ruleId}: ${message.message} (${message.selector ?? ''})`;

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[] }>;
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ ...violation, nodes: violation.nodes.map((node) => ({ target: node.target })) }));
  });
  return violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

describe('browser: the storefront pages are valid HTML and pass axe', function () {
  this.timeout(300_000);
  let browser: BrowserSession;
  let baseUrl: string;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
  });
  after(() => browser?.close());

  it('has 0 html-validate errors (html-validate:standard) on every storefront page, in English and Korean', async () => {
    const validator = new HtmlValidate({ extends: ['html-validate:standard'] });
    const problems: string[] = [];
    for (const lang of ['en', 'ko']) {
      for (const path of PAGES) {
        const url = `${baseUrl}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
        const html = await (await fetch(url)).text();
        expect(html, url).to.contain('<div id="root"><');
        const report = await validator.validateString(html, url);
        for (const result of report.results)
          for (const message of result.messages) if (message.severity === 2) problems.push(`${path} (${lang}) ${describeMessage(message)}`);
      }
    }
    if (problems.length > 0) console.log(problems.join('\n'));
    expect(problems.length, 'html-validate errors (listed above)').to.equal(0);
  });

  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`has 0 axe-core violations on every storefront page (${device}, English and Korean)`, async () => {
      const problems: string[] = [];
      // One page for the device (the address names the language): axe is added as an inline
      // script, which the shop's Content-Security-Policy would refuse.
      const page = await browser.newPage(viewport);
      await page.setBypassCSP(true);
      try {
        for (const lang of ['en', 'ko']) {
          for (const path of PAGES) {
            await page.goto(`${baseUrl}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`, { waitUntil: 'load' });
            await page.waitForSelector('html[data-hydrated]');
            await page.waitForNetworkIdle({ idleTime: 200 });
            // Open what opens: the menus of the bar and every FAQ answer are checked too.
            await page.$$eval('details', (all) => all.forEach((details) => (details.open = true)));
            for (const problem of await axeViolations(page)) problems.push(`${path} (${lang}) ${problem}`);
          }
        }
      } finally {
        await page.close();
      }
      if (problems.length > 0) console.log(problems.join('\n'));
      expect(problems.length, 'axe violations (listed above)').to.equal(0);
    });
  }
});
