import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { createUser, loginAs, type TestUser } from '../support/agent.js';
import { loggedInPage, openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { harness, useWorker } from '../support/harness.js';
import { createAccount, createPlatform } from '../support/shop.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

const ROLE = { user: 0, moderator: 1, admin: 2 } as const;
const testId = (id: string) => `[data-testid="${id}"]`;

/**
 * Issue 24, what staff tripped over: a platform on sale with no account behind it is flagged in
 * the catalog list and warned about in the editor; showing or hiding a platform, granting Admin
 * and demoting each ask first, naming the platform or user; the editor's sticky save bar never
 * covers the focused control (WCAG 2.4.11); /jve/orders/7 says there is no such list; Korean
 * words stay whole in the admin tables on a phone.
 */
describe('browser: staff are warned before harm', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let admin: TestUser;
  const knex = () => harness().knex;

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
  const text = async (page: Page, selector: string) => clean(await page.$eval(selector, (element) => element.textContent));
  async function click(page: Page, selector: string) {
    await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
    const element = await page.waitForSelector(selector, { visible: true });
    await element!.click();
  }
  const adminPage = (options: { language?: 'en' | 'ko'; viewport?: { width: number; height: number } } = {}) =>
    loggedInPage(browser, baseUrl, admin, { role: ROLE.admin, ...options });

  it('flags a shown platform without an account in the list and the editor; Show and Hide ask first, naming it', async () => {
    const bare = await createPlatform();
    const stocked = await createPlatform();
    await createAccount(stocked.id, 5);
    const page = await adminPage();
    await page.goto(`${baseUrl}/jve/catalog`);
    await page.waitForSelector(`${testId('admin-catalog')}[data-status="loaded"]`);
    const row = (id: number) => `${testId('admin-catalog-row')}[data-platform-id="${id}"]`;
    expect(await text(page, `${row(bare.id)} ${testId('admin-catalog-no-accounts')}`)).to.equal('No account');
    expect(await page.$(`${row(stocked.id)} ${testId('admin-catalog-no-accounts')}`)).to.equal(null);

    // Hide asks first, naming the platform; Cancel changes nothing.
    await click(page, `${row(bare.id)} ${testId('admin-catalog-toggle')}`);
    await page.waitForSelector(testId('admin-confirm'));
    expect(await text(page, testId('admin-confirm-text'))).to.contain(bare.name);
    expect(clean(await page.$eval(`${testId('admin-confirm')} h2, ${testId('admin-confirm')} [id*="title"]`, (e) => e.textContent))).to.equal(
      `Hide ${bare.name}?`,
    );
    await click(page, testId('admin-confirm-cancel'));
    await page.waitForSelector(testId('admin-confirm'), { hidden: true });
    expect((await knex()('platforms').where({ id: bare.id }).first()).is_enabled).to.equal(true);
    // Confirm hides it.
    await click(page, `${row(bare.id)} ${testId('admin-catalog-toggle')}`);
    await click(page, testId('admin-confirm-ok'));
    await page.waitForSelector(`${row(bare.id)}[data-enabled="false"]`);
    expect((await knex()('platforms').where({ id: bare.id }).first()).is_enabled).to.equal(false);
    // Showing it again says it has no account behind it.
    await click(page, `${row(bare.id)} ${testId('admin-catalog-toggle')}`);
    expect(await text(page, testId('admin-confirm-text'))).to.equal(
      `${bare.name} goes on sale in the shop at once, but no account is behind it: buyers who pay wait until staff add one.`,
    );
    await click(page, testId('admin-confirm-ok'));
    await page.waitForSelector(`${row(bare.id)}[data-enabled="true"]`);

    // The editor warns beside "Shown in the shop" while it is ticked and nothing is behind it.
    await page.goto(`${baseUrl}/jve/catalog/${bare.id}`);
    await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"]`);
    expect(await text(page, testId('admin-catalog-no-accounts'))).to.match(/^No account is behind this platform\./);
    await click(page, `${testId('admin-catalog-isEnabled')}`);
    await page.waitForSelector(testId('admin-catalog-no-accounts'), { hidden: true });
    await page.goto(`${baseUrl}/jve/catalog/${stocked.id}`);
    await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"]`);
    expect(await page.$(testId('admin-catalog-no-accounts'))).to.equal(null);
    await page.close();
  });

  it('granting Admin and demoting ask first, naming the user; Cancel keeps the role', async () => {
    const user = await createUser();
    const page = await adminPage();
    await page.goto(`${baseUrl}/jve/staff`);
    await page.waitForSelector(`${testId('admin-staff')}[data-status="loaded"]`);
    await click(page, testId('admin-staff-email'));
    await page.type(testId('admin-staff-email'), user.email);
    await page.select(testId('admin-staff-role'), '2');
    await click(page, testId('admin-staff-submit'));
    await page.waitForSelector(testId('admin-confirm'));
    expect(await text(page, testId('admin-confirm-text'))).to.equal(
      `${user.email} becomes an admin: they can edit the catalog, refund orders and change staff roles, yours included.`,
    );
    await click(page, testId('admin-confirm-cancel'));
    await page.waitForSelector(testId('admin-confirm'), { hidden: true });
    expect((await knex()('users').where({ id: user.id }).first()).role).to.equal(ROLE.user);

    // The form keeps what was typed: Save again, and Confirm this time.
    await click(page, testId('admin-staff-submit'));
    await click(page, testId('admin-confirm-ok'));
    const row = `${testId('admin-staff-row')}[data-user-id="${user.id}"]`;
    await page.waitForSelector(`${row}[data-role="2"]`);
    expect((await knex()('users').where({ id: user.id }).first()).role).to.equal(ROLE.admin);

    // Demoting (admin → moderator) asks first too.
    await click(page, `${row} ${testId('admin-staff-demote')}`);
    expect(await text(page, testId('admin-confirm-text'))).to.equal(`${user.email} becomes Moderator on their next request.`);
    await click(page, testId('admin-confirm-cancel'));
    expect((await knex()('users').where({ id: user.id }).first()).role).to.equal(ROLE.admin);
    await click(page, `${row} ${testId('admin-staff-demote')}`);
    await click(page, testId('admin-confirm-ok'));
    await page.waitForSelector(`${row}[data-role="1"]`);
    await page.close();
  });

  it("the editor's sticky save bar never covers the focused control, on a phone", async () => {
    const page = await adminPage({ viewport: PHONE });
    await page.goto(`${baseUrl}/jve/catalog/1`);
    await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"]`);
    await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
    // The form's text inputs in order; each is reached by Tab from the one before it while the page
    // is scrolled so that it lies in view but where the bar is (the case the bar covers it in).
    const count = await page.$$eval(
      `${testId('admin-catalog-form')} input[type="text"], ${testId('admin-catalog-form')} input:not([type])`,
      (all) => all.length,
    );
    expect(count).to.be.greaterThan(10);
    const covered: string[] = [];
    for (const index of [3, 6, 9, Math.floor(count / 2), count - 2]) {
      const state = await page.evaluate((at) => {
        const inputs = [
          ...document.querySelectorAll<HTMLInputElement>(
            '[data-testid="admin-catalog-form"] input[type="text"], [data-testid="admin-catalog-form"] input:not([type])',
          ),
        ];
        const bar = document.querySelector('[data-testid="admin-catalog-save-bar"]')!;
        const target = inputs[at]!;
        const before = inputs[at - 1]!;
        // Put the target's middle in the middle of the bar's band at the bottom of the window.
        const barHeight = bar.getBoundingClientRect().height;
        const box = target.getBoundingClientRect();
        window.scrollBy(0, box.top + box.height / 2 - (window.innerHeight - barHeight / 2));
        before.focus({ preventScroll: true });
        return { name: target.name, previous: before.name };
      }, index);
      // Tab from the input before it (anything between, e.g. a remove button, is tabbed past too).
      for (let step = 0; step < 5; step += 1) {
        await page.keyboard.press('Tab');
        if (await page.evaluate((name) => (document.activeElement as HTMLInputElement | null)?.name === name, state.name)) break;
      }
      const result = await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement;
        const barTop = document.querySelector('[data-testid="admin-catalog-save-bar"]')!.getBoundingClientRect().top;
        const box = focused.getBoundingClientRect();
        return { name: (focused as HTMLInputElement).name, bottom: Math.round(box.bottom), barTop: Math.round(barTop) };
      });
      expect(result.name, `Tab from ${state.previous}`).to.equal(state.name);
      if (result.bottom > result.barTop) covered.push(`${result.name}: bottom ${result.bottom} > bar top ${result.barTop}`);
    }
    expect(covered).to.deep.equal([]);
    await page.close();
  });

  it('/jve/orders/7 says there is no such list; Korean words stay whole in the tables on a phone', async () => {
    const page = await adminPage({ language: 'ko', viewport: PHONE });
    await page.goto(`${baseUrl}/jve/orders/7`);
    await page.waitForSelector(testId('admin-orders-unknown'));
    expect(await text(page, `${testId('admin-orders-unknown')} h1, ${testId('admin-orders-unknown')} h2`)).to.equal(
      '그런 목록은 없습니다. 7은 주문 상태가 아닙니다. 메뉴에서 목록을 선택해 주세요.',
    );
    expect(await page.$(testId('admin-orders-search'))).to.equal(null);

    await page.goto(`${baseUrl}/jve/staff`);
    await page.waitForSelector(`${testId('admin-staff')}[data-status="loaded"]`);
    const breaks = await page.$$eval(`${testId('admin-staff-table')} td, ${testId('admin-staff-table')} th`, (cells) => [
      ...new Set(cells.map((cell) => getComputedStyle(cell).wordBreak)),
    ]);
    expect(breaks).to.deep.equal(['keep-all']);
    await page.close();
  });
});
