import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { loginAs } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { chooseCurrency, loggedInPage, openBrowser, PHONE, shownCurrency, type BrowserSession } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

/**
 * One currency choice, the same on every page (issue 14): a Korean visitor who has chosen nothing
 * sees ₩ KRW, the currency the server chose for them, on whatever page they open first (login,
 * support, a policy, a payment result, the panel, the admin area), not € EUR until they pass by
 * home or a platform page; a visitor's own choice wins everywhere.
 */
describe('browser: one currency on every page', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
  });
  after(() => browser?.close());

  const currencyShown = (page: Page) => shownCurrency(page);

  for (const path of ['/login', '/support', '/termsandconditions', '/paymentresult/1/1', '/faq']) {
    it(`a Korean visitor opening ${path} first sees KRW`, async () => {
      const page = await browser.newPage(PHONE);
      await page.setExtraHTTPHeaders({ 'Accept-Language': 'ko-KR,ko;q=0.9' });
      await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle0' });
      expect(await currencyShown(page), path).to.equal('KRW');
      await page.close();
    });
  }

  it('a logged-in Korean buyer sees KRW on the panel, and a Korean admin in the admin area', async () => {
    const buyer = await loginAs('user');
    const panel = await loggedInPage(browser, baseUrl, buyer, { language: 'ko' });
    await panel.goto(`${baseUrl}/user/${buyer.id}`, { waitUntil: 'networkidle0' });
    expect(await currencyShown(panel)).to.equal('KRW');
    await panel.close();

    const admin = await loginAs('admin');
    const area = await loggedInPage(browser, baseUrl, admin, { role: 2, language: 'ko' });
    await area.goto(`${baseUrl}/jve`, { waitUntil: 'networkidle0' });
    expect(await currencyShown(area)).to.equal('KRW');
    await area.close();
  });

  it('a choice wins everywhere: a Korean visitor who chose EUR sees EUR on login and support', async () => {
    const page = await browser.newPage(PHONE);
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'ko-KR,ko;q=0.9' });
    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle0' });
    await chooseCurrency(page, 'EUR');
    await page.waitForFunction(() => localStorage.getItem('subshare.currency') === 'EUR');
    for (const path of ['/login', '/support']) {
      await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle0' });
      expect(await currencyShown(page), path).to.equal('EUR');
    }
    await page.close();
  });
});
