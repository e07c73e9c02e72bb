import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { loginAs, type TestUser } from '../support/agent.js';
import { closeSnackbar, loggedInPage, openBrowser, PHONE, snackbarShown, type BrowserSession } from '../support/browser.js';
import { harness } from '../support/harness.js';
import { ensureWebBuilt } from '../support/web-build.js';

const ADMIN = 2;

/**
 * The promotion codes page in Chromium (issue 37): an admin creates a percentage code and a fixed
 * one, edits a code's limit, deactivates it after a question, sees a taken code refused beside the
 * form, and reads the same page in Korean.
 */
describe('browser: the promotion codes page', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let admin: TestUser;
  const knex = () => harness().knex;
  const suffix = Date.now().toString(36).toUpperCase();

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
    admin = await loginAs('admin');
  });
  after(async () => {
    await browser?.close();
  });

  const clean = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  async function click(page: Page, selector: string) {
    await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
    const element = await page.waitForSelector(selector, { visible: true });
    await element!.click();
  }
  async function typeInto(page: Page, selector: string, text: string) {
    await click(page, selector);
    await page.$eval(selector, (element) => (element as HTMLInputElement).select());
    await page.type(selector, text);
  }
  const row = (code: string) => `[data-testid="admin-promo-row"][data-code="${code}"]`;
  const cell = (page: Page, code: string, testId: string) => page.$eval(`${row(code)} [data-testid="${testId}"]`, (element) => element.textContent).then(clean);

  it('an admin creates, edits and deactivates codes; a taken code is refused beside the form', async () => {
    const percent = `LAUNCH-${suffix}`;
    const fixed = `FIXED-${suffix}`;
    const page = await loggedInPage(browser, baseUrl, admin, { role: ADMIN });
    await page.goto(`${baseUrl}/jve`, { waitUntil: 'networkidle0' });
    await click(page, '[data-testid="admin-menu-promos"]');
    await page.waitForSelector('[data-testid="admin-promos"][data-status="loaded"]');

    await typeInto(page, '[data-testid="admin-promo-code"]', percent.toLowerCase());
    await typeInto(page, '[data-testid="admin-promo-percent"]', '15');
    await typeInto(page, '[data-testid="admin-promo-total"]', '100');
    await click(page, '[data-testid="admin-promo-submit"]');
    await snackbarShown(page, `Code ${percent} created.`);
    await closeSnackbar(page);
    await page.waitForSelector(row(percent));
    expect(await cell(page, percent, 'admin-promo-discount')).to.equal('15 %');
    expect(await cell(page, percent, 'admin-promo-use')).to.equal('0 (0)');
    expect(await knex()('promo_codes').where({ code: percent }).first()).to.include({ percent_off: 15, total_limit: 100, per_buyer_limit: 1, active: true });

    await typeInto(page, '[data-testid="admin-promo-code"]', fixed);
    await page.select('[data-testid="admin-promo-kind"]', 'fixed');
    await typeInto(page, '[data-testid="admin-promo-eur"]', '2.5');
    await typeInto(page, '[data-testid="admin-promo-krw"]', '3000');
    await click(page, '[data-testid="admin-promo-first"]');
    await click(page, '[data-testid="admin-promo-submit"]');
    await snackbarShown(page, `Code ${fixed} created.`);
    await closeSnackbar(page);
    await page.waitForSelector(row(fixed));
    expect(await knex()('promo_codes').where({ code: fixed }).first()).to.include({
      percent_off: null,
      amount_eur_minor: 250,
      amount_krw_minor: 3000,
      first_order_only: true,
    });

    // Edit: the form fills with the code's terms; the code itself cannot change.
    await click(page, `${row(percent)} [data-testid="admin-promo-edit"]`);
    await page.waitForFunction(() => (document.querySelector('[data-testid="admin-promo-code"]') as HTMLInputElement | null)?.disabled === true);
    expect(await page.$eval('[data-testid="admin-promo-total"]', (element) => (element as HTMLInputElement).value)).to.equal('100');
    await typeInto(page, '[data-testid="admin-promo-total"]', '20');
    await click(page, '[data-testid="admin-promo-submit"]');
    await snackbarShown(page, `Code ${percent} saved.`);
    await closeSnackbar(page);
    expect((await knex()('promo_codes').where({ code: percent }).first()).total_limit).to.equal(20);

    // Deactivate asks first, then the row says Off.
    await click(page, `${row(percent)} [data-testid="admin-promo-toggle"]`);
    expect(clean(await (await page.waitForSelector('[data-testid="admin-confirm-text"]'))!.evaluate((element) => element.textContent))).to.contain(
      'keep their discount',
    );
    await click(page, '[data-testid="admin-confirm-ok"]');
    await snackbarShown(page, `Code ${percent} deactivated: buyers are told it does not exist.`);
    await closeSnackbar(page);
    await page.waitForSelector(`${row(percent)}[data-active="false"]`);
    expect((await knex()('promo_codes').where({ code: percent }).first()).active).to.equal(false);

    // A code that exists (in any case) is refused with the server's reason beside the form.
    await typeInto(page, '[data-testid="admin-promo-code"]', fixed.toLowerCase());
    await typeInto(page, '[data-testid="admin-promo-percent"]', '5');
    await click(page, '[data-testid="admin-promo-submit"]');
    await page.waitForSelector('[data-testid="admin-promo-error"]');
    expect(clean(await page.$eval('[data-testid="admin-promo-error"]', (element) => element.textContent))).to.equal('A code with this name exists already.');
    await page.close();
  });

  it('on a phone, codes and discounts stay on one line, and Edit brings the form into view with focus on its title', async () => {
    const code = `PHONE-${suffix}`;
    const created = await fetch(`${baseUrl}/api/promo/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...admin.auth },
      body: JSON.stringify({ code, amounts: { EUR: 2.5, KRW: 3000 } }),
    });
    expect(created.status).to.equal(200);
    const page = await loggedInPage(browser, baseUrl, admin, { role: ADMIN, language: 'ko', viewport: PHONE });
    await page.goto(`${baseUrl}/jve/promos`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="admin-promos"][data-status="loaded"]');
    // Lines a cell's text is laid out on (it was broken every three or four characters at 390 px).
    const linesOf = (selector: string) =>
      page.$eval(selector, (cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell.firstChild!);
        return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
      });
    expect(await linesOf(`${row(code)} td`)).to.equal(1);
    expect(await linesOf(`${row(code)} [data-testid="admin-promo-discount"]`)).to.equal(1);
    // The row's Edit button is below the form: the form is out of sight once the button is reached.
    await (await page.waitForSelector(`${row(code)} [data-testid="admin-promo-edit"]`))!.scrollIntoView();
    await click(page, `${row(code)} [data-testid="admin-promo-edit"]`);
    await page.waitForFunction((wanted) => document.querySelector('[data-testid="admin-promo-form-title"]')?.textContent?.includes(wanted), {}, code);
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'admin-promo-form-title');
    const title = await page.$eval('[data-testid="admin-promo-form-title"]', (element) => {
      const box = element.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, height: window.innerHeight };
    });
    expect(title.top, JSON.stringify(title)).to.be.greaterThan(0);
    expect(title.bottom, JSON.stringify(title)).to.be.lessThan(title.height);
    await page.close();
  });

  it('reads in Korean', async () => {
    const page = await loggedInPage(browser, baseUrl, admin, { role: ADMIN, language: 'ko' });
    await page.goto(`${baseUrl}/jve/promos`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="admin-promos"][data-status="loaded"]');
    const text = clean(await page.$eval('[data-testid="admin-promos"]', (element) => element.textContent));
    expect(text).to.contain('프로모션 코드');
    expect(text).to.contain('코드 만들기');
    expect(text).to.contain('코드로 주문이 무료가 되지는 않습니다');
    await page.close();
  });
});
