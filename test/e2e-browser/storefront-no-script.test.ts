/**
 * The storefront with JavaScript turned off (issue 24): browse → platform → choose → see the
 * price of that choice → go to payment → /login with the payment as the return URL. And the
 * other controls in plain HTML: the FAQ opens, the language and currency choosers bring the page
 * back in the chosen language and currency. A promotion code in the platform page's link goes
 * along to the payment page's return URL.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { harness } from '../support/harness.js';
import { DESKTOP, openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

async function scriptlessPage(browser: BrowserSession, viewport = DESKTOP): Promise<Page> {
  const page = await browser.newPage(viewport);
  await page.setJavaScriptEnabled(false);
  await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
  return page;
}

/** Follows a link or submits a form by a click, and waits for the page it leads to. */
async function clickAndWait(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(selector)]);
}

const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? '');

describe('browser: the storefront without JavaScript', function () {
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

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`browse → platform → choose → go to payment → /login keeping the return URL (${name})`, async () => {
      const page = await scriptlessPage(browser, viewport);
      try {
        await page.goto(`${baseUrl}/`);
        expect(await page.$$('script[src]').then((scripts) => scripts.length), 'the page names its scripts').to.be.above(0);
        const card = '[data-testid="platform-card"][data-platform-id="1"] [data-testid="platform-card-purchase"]';
        await clickAndWait(page, card);
        expect(new URL(page.url()).pathname).to.equal('/platform/1');

        // Choose the last duration and ask for its price: the page comes back with that choice.
        const before = await text(page, '[data-testid="platform-sale-price"]');
        const durations = await page.$$eval('input[name="duration"]', (inputs) => inputs.map((input) => (input as HTMLInputElement).value));
        expect(durations.length).to.be.above(1);
        const chosen = durations.at(-1)!;
        await page.click(`[data-testid="duration-option"][data-option-id="${chosen}"]`);
        expect(await page.$eval(`input[name="duration"][value="${chosen}"]`, (input) => (input as HTMLInputElement).checked)).to.equal(true);
        await clickAndWait(page, '[data-testid="platform-show-price"]');
        expect(new URL(page.url()).searchParams.get('duration')).to.equal(chosen);
        expect(await page.$eval(`input[name="duration"][value="${chosen}"]`, (input) => (input as HTMLInputElement).checked)).to.equal(true);
        expect(await text(page, '[data-testid="platform-sale-price"]'), 'the price of the chosen duration').to.not.equal(before);
        const type = await page.$eval('input[name="type"]:checked', (input) => (input as HTMLInputElement).value);

        await clickAndWait(page, '[data-testid="platform-go-to-payment"]');
        const landed = new URL(page.url());
        expect(landed.pathname).to.equal('/login');
        expect(landed.searchParams.get('returnUrl')).to.equal(`/payment?platform=1&type=${type}&duration=${chosen}`);
      } finally {
        await page.close();
      }
    });
  }

  for (const c of [
    { lang: 'en', acceptLanguage: 'en-GB,en;q=0.9', title: 'This page needs JavaScript', says: /Logging in, paying .* need JavaScript/, home: 'Back to home' },
    {
      lang: 'ko',
      acceptLanguage: 'ko-KR,ko;q=0.9',
      title: '이 페이지는 JavaScript가 필요해요',
      says: /로그인, 결제.*JavaScript가 필요합니다/,
      home: '홈으로 돌아가기',
    },
  ] as const) {
    it(`"Go to payment" and /login say they need JavaScript, in the shop's frame, and lead back to the choice (${c.lang})`, async () => {
      const page = await scriptlessPage(browser, PHONE);
      await page.setExtraHTTPHeaders({ 'Accept-Language': c.acceptLanguage });
      /** The notice of a page that needs script: in the visitor's language, between the shop's header and footer. */
      const expectNotice = async () => {
        expect(await page.$eval('html', (html) => html.lang)).to.equal(c.lang);
        expect(await page.$('[data-testid="nav-home"]'), 'the header').to.not.equal(null);
        expect(await page.$('[data-testid="footer"]'), 'the footer').to.not.equal(null);
        expect(await text(page, '[data-testid="no-script-title"]')).to.equal(c.title);
        expect(await text(page, '[data-testid="no-script-message"]')).to.match(c.says);
        expect(await page.$eval('[data-testid="no-script"]', (element) => element.getBoundingClientRect().height), 'shown').to.be.above(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'no sideways scroll').to.equal(0);
      };
      const back = () => page.$eval('[data-testid="no-script-links"] a', (link) => ({ href: link.getAttribute('href'), label: link.textContent }));
      try {
        await page.goto(`${baseUrl}/platform/1`);
        const durations = await page.$$eval('input[name="duration"]', (inputs) => inputs.map((input) => (input as HTMLInputElement).value));
        const chosen = durations.at(-1)!;
        await page.click(`[data-testid="duration-option"][data-option-id="${chosen}"]`);
        await clickAndWait(page, '[data-testid="platform-show-price"]');
        const type = await page.$eval('input[name="type"]:checked', (input) => (input as HTMLInputElement).value);
        const platformName = await text(page, '[data-testid="platform-name"]');

        // "Go to payment" → /login, which needs script: it says so and leads back to this choice.
        await clickAndWait(page, '[data-testid="platform-go-to-payment"]');
        expect(new URL(page.url()).pathname).to.equal('/login');
        await expectNotice();
        const link = await back();
        expect(link.href).to.equal(`/platform/1?type=${type}&duration=${chosen}`);
        expect(link.label).to.contain(platformName);
        await clickAndWait(page, '[data-testid="no-script-links"] a');
        expect(new URL(page.url()).pathname).to.equal('/platform/1');
        expect(await page.$eval(`input[name="duration"][value="${chosen}"]`, (input) => (input as HTMLInputElement).checked), 'the choice kept').to.equal(true);

        // The payment page itself, and /login opened on its own (nothing chosen: back home).
        await page.goto(`${baseUrl}/payment?platform=1&type=${type}&duration=${chosen}`);
        await expectNotice();
        expect((await back()).href).to.equal(`/platform/1?type=${type}&duration=${chosen}`);
        await page.goto(`${baseUrl}/login`);
        await expectNotice();
        expect(await back()).to.deep.equal({ href: '/', label: c.home });
      } finally {
        await page.close();
      }
    });
  }

  it('a promotion code link (?code=) is carried through the choice and "Go to payment" to the return URL, and back (issue 37)', async () => {
    const page = await scriptlessPage(browser, PHONE);
    try {
      await page.goto(`${baseUrl}/platform/1?code=SPRING26`);
      expect(await page.$eval('[data-testid="platform-choice-form"] input[name="code"]', (input) => (input as HTMLInputElement).value)).to.equal('SPRING26');
      const durations = await page.$$eval('input[name="duration"]', (inputs) => inputs.map((input) => (input as HTMLInputElement).value));
      const chosen = durations.at(-1)!;
      await page.click(`[data-testid="duration-option"][data-option-id="${chosen}"]`);
      await clickAndWait(page, '[data-testid="platform-show-price"]');
      expect(new URL(page.url()).searchParams.get('code'), 'kept with the choice').to.equal('SPRING26');
      const type = await page.$eval('input[name="type"]:checked', (input) => (input as HTMLInputElement).value);

      await clickAndWait(page, '[data-testid="platform-go-to-payment"]');
      const landed = new URL(page.url());
      expect(landed.pathname).to.equal('/login');
      expect(landed.searchParams.get('returnUrl')).to.equal(`/payment?platform=1&type=${type}&duration=${chosen}&code=SPRING26`);
      expect(await page.$eval('[data-testid="no-script-links"] a', (link) => link.getAttribute('href'))).to.equal(
        `/platform/1?type=${type}&duration=${chosen}&code=SPRING26`,
      );

      // Without a code the same page is the kept one again: no code from the page before.
      await page.goto(`${baseUrl}/platform/1`);
      expect(await page.$('[data-testid="platform-choice-form"] input[name="code"]')).to.equal(null);
    } finally {
      await page.close();
    }
  });

  it('opens FAQ questions one by one, all closed at first', async () => {
    const page = await scriptlessPage(browser);
    try {
      await page.goto(`${baseUrl}/platform/1`);
      const openStates = () => page.$$eval('[data-testid="faq-item"] details', (items) => items.map((item) => item.hasAttribute('open')));
      const initial = await openStates();
      expect(initial.length).to.be.above(1);
      expect(initial).to.not.include(true);
      await page.click('[data-testid="faq-item"]:nth-child(2) [data-testid="faq-question"]');
      expect(await openStates()).to.deep.equal(initial.map((_, index) => index === 1));
      await page.click('[data-testid="faq-item"]:nth-child(1) [data-testid="faq-question"]');
      expect((await openStates()).slice(0, 2)).to.deep.equal([true, true]);
      await page.click('[data-testid="faq-item"]:nth-child(2) [data-testid="faq-question"]');
      expect((await openStates()).slice(0, 2)).to.deep.equal([true, false]);
    } finally {
      await page.close();
    }
  });

  it('switches language and currency through the choosers, kept for the next pages', async () => {
    const page = await scriptlessPage(browser, PHONE);
    try {
      await page.goto(`${baseUrl}/platform/1?lang=en&currency=EUR`);
      expect(await page.$eval('html', (html) => html.lang)).to.equal('en');
      await page.click('[data-testid="language-toggle"]');
      await page.waitForSelector('[data-testid="language-dialog"]', { visible: true });
      await clickAndWait(page, '[data-testid="language-option-ko"]');
      const url = new URL(page.url());
      expect(url.pathname, 'back on the page it came from').to.equal('/platform/1');
      expect(url.searchParams.has('lang'), 'the address no longer overrides the choice').to.equal(false);
      expect(await page.$eval('html', (html) => html.lang)).to.equal('ko');

      await page.click('[data-testid="currency-toggle"]');
      await page.waitForSelector('[data-testid="currency-menu"]', { visible: true });
      await clickAndWait(page, '[data-testid="currency-option-KRW"]');
      expect(await page.$eval('[data-testid="page-platform"]', (element) => element.getAttribute('data-currency'))).to.equal('KRW');
      // Won, written one way in both languages (₩5,300).
      expect(await text(page, '[data-testid="platform-sale-price"]')).to.match(/^₩\d{1,3}(,\d{3})*$/);

      // The cookies keep both for the next page.
      await page.goto(`${baseUrl}/`);
      expect(await page.$eval('html', (html) => html.lang)).to.equal('ko');
      expect(await text(page, '[data-testid="platform-card-price"]')).to.match(/^₩\d/);
    } finally {
      await page.close();
    }
  });

  it('opens the phone menu and follows its links', async () => {
    const page = await scriptlessPage(browser, PHONE);
    try {
      await page.goto(`${baseUrl}/`);
      await page.click('[data-testid="nav-menu-toggle"]');
      await page.waitForSelector('[data-testid="nav-mobile-menu"]', { visible: true });
      await clickAndWait(page, '[data-testid="nav-mobile-menu"] [data-testid="nav-login"]');
      expect(new URL(page.url()).pathname).to.equal('/login');
    } finally {
      await page.close();
    }
  });
});
