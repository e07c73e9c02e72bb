import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { harness } from '../support/harness.js';
import { openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

type Language = 'en' | 'ko';

/**
 * The facts each static page must state (spec section 1), per language. Every policy fact of
 * the spec appears at least once: liability cap, refund window and fee, cancellation notice,
 * cookie lifetimes, one device and one stream, age rule, 12-month family rule, counter-notice.
 */
const FACTS: Record<string, Record<Language, RegExp[]>> = {
  termsandconditions: {
    en: [
      /30 SGD or the fees you paid/,
      /refund within 24 hours/,
      /refund fee/,
      /at least 24 hours before the next billing/,
      /one device/,
      /one stream/,
      /over 18/,
      /consent of a parent/,
      /Premium family group cannot join it again for 12 months/,
      /within 24 hours/,
    ],
    ko: [
      /30 SGD 또는 해당 구독에 지불하신 금액/,
      /24시간 이내에 환불/,
      /환불 수수료/,
      /다음 결제일 최소 24시간 전/,
      /한 대의 기기/,
      /하나의 스트림/,
      /만 18세/,
      /법정대리인의 동의/,
      /프리미엄 패밀리 그룹에서 제외된 멤버는 12개월/,
    ],
  },
  privacypolicy: {
    en: [/logged in for two days, or for two weeks when you choose "Remember me"/, /language and currency for one year/, /over 18/, /consent of a parent/],
    ko: [/2일 동안, "로그인 상태 유지"를 선택하면 2주/, /언어와 통화 선택을 1년/, /만 18세/],
  },
  refundpolicy: {
    en: [/refund within 24 hours of your purchase/, /refund fee/, /at least 24 hours before the next billing/],
    ko: [/구매 후 24시간 이내에 환불/, /환불 수수료/, /다음 결제일 최소 24시간 전/],
  },
  copyrightpolicy: {
    en: [/counter-notice/, /restore the material within 10 to 14 business days/],
    ko: [/이의 제기/, /영업일 기준 10~14일 이내에 자료를 복원/],
  },
  amlpolicy: {
    en: [/money/, /payment providers/, /over 18/],
    ko: [/자금세탁/, /결제 대행사/, /만 18세/],
  },
  aboutus: {
    en: [/private limited company registered in the United Kingdom, represented by/],
    ko: [/영국에 등록된 유한회사/, /대표자는/],
  },
  faq: {
    en: [/within 24 hours/, /one device/, /12 months/, /over 18/],
    ko: [/24시간 이내/, /한 대의 기기/, /12개월/, /만 18세/],
  },
  howitworks: {
    en: [/1, 3, 6 or 12 months/, /[Ww]ithin 24 hours/, /Get verification link/],
    ko: [/1, 3, 6, 12개월/, /24시간 이내/, /인증 링크 받기/],
  },
  support: {
    en: [/24 hours/, /order number/],
    ko: [/24시간/, /주문 번호/],
  },
};

const TITLES: Record<string, Record<Language, string>> = {
  support: { en: 'Support', ko: '고객 지원' },
  faq: { en: 'FAQ', ko: '자주 묻는 질문' },
  howitworks: { en: 'How it works', ko: '이용 방법' },
  aboutus: { en: 'About us', ko: '회사 소개' },
  termsandconditions: { en: 'Terms and conditions', ko: '이용약관' },
  privacypolicy: { en: 'Privacy policy', ko: '개인정보처리방침' },
  amlpolicy: { en: 'AML policy', ko: '자금세탁방지 정책' },
  copyrightpolicy: { en: 'Copyright policy', ko: '저작권 정책' },
  refundpolicy: { en: 'Refund policy', ko: '환불 정책' },
};

/** Every static page in English and Korean states its facts, with the business details from the configuration. */
describe('browser: storefront static and policy pages', function () {
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

  async function pageIn(language: Language, viewport?: { width: number; height: number }): Promise<Page> {
    const page = await browser.newPage(viewport);
    await page.setExtraHTTPHeaders({ 'Accept-Language': language === 'ko' ? 'ko-KR,ko;q=0.9' : 'en-GB,en;q=0.9' });
    return page;
  }

  // textContent, not innerText: the FAQ's closed answers count too.
  const bodyText = (page: Page, name: string) => page.$eval(`[data-testid="page-${name}"]`, (element) => (element.textContent ?? '').replace(/\s+/g, ' '));

  for (const language of ['en', 'ko'] as const) {
    it(`every static page states its facts in ${language === 'en' ? 'English' : 'Korean'}`, async () => {
      const business = harness().config.business;
      const page = await pageIn(language);
      for (const name of Object.keys(FACTS)) {
        await page.goto(`${baseUrl}/${name}`, { waitUntil: 'networkidle0' });
        await page.waitForSelector(`[data-testid="page-${name}"]`);
        // Business details come in with /api/main/business: wait for the footer to show them.
        await page.waitForSelector('[data-testid="footer-business-name"]');
        expect(await page.$eval('html', (html) => html.lang), name).to.equal(language);
        expect(await page.$$eval('h1', (headings) => headings.map((heading) => heading.textContent)), name).to.deep.equal([TITLES[name]![language]]);
        expect(await page.title(), name).to.contain(TITLES[name]![language]);
        const text = await bodyText(page, name);
        for (const fact of FACTS[name]![language]) expect(text, `${name}: ${fact}`).to.match(fact);
        if (language === 'ko') expect(text, name).to.match(/[\uac00-\ud7a3]/);
        else expect(text, name).to.not.match(/[\uac00-\ud7a3]/);
      }

      // The business details, from the configuration: on about us (and the terms name the company and its representative).
      await page.goto(`${baseUrl}/aboutus`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="business-details"]');
      const details = await page.$$eval('[data-testid="business-details"] dd', (cells) =>
        Object.fromEntries(cells.map((cell) => [cell.getAttribute('data-testid'), cell.textContent])),
      );
      expect(details).to.deep.equal({
        'business-name': business.name,
        'business-registration-number': business.registrationNumber,
        'business-mail-order-number': business.mailOrderNumber,
        'business-address': business.address,
        'business-representative': business.representative,
        'business-phone': business.supportPhone,
        'business-email': business.supportEmail,
      });
      await page.goto(`${baseUrl}/termsandconditions`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="footer-business-name"]');
      const terms = await bodyText(page, 'termsandconditions');
      for (const value of [business.name, business.representative, business.address, business.supportEmail]) expect(terms).to.contain(value);

      // Support: phone and e-mail, as links.
      await page.goto(`${baseUrl}/support`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="support-phone"]');
      expect(await page.$eval('[data-testid="support-phone"]', (element) => element.textContent)).to.contain(business.supportPhone);
      expect(await page.$eval('[data-testid="support-email"] a', (link) => link.getAttribute('href'))).to.equal(`mailto:${business.supportEmail}`);
      expect(await page.$eval('[data-testid="support-phone"] a', (link) => link.getAttribute('href'))).to.match(/^tel:\+?\d+$/);

      // The footer shows the business details on every page.
      const footer = await page.$eval('[data-testid="footer-business"]', (element) => (element as HTMLElement).innerText);
      for (const value of [
        business.name,
        business.registrationNumber,
        business.mailOrderNumber,
        business.address,
        business.representative,
        business.supportPhone,
        business.supportEmail,
      ]) {
        expect(footer).to.contain(value);
      }
      await page.close();
    });
  }

  it('the site FAQ: every question closed at first, each toggling on its own', async () => {
    const page = await pageIn('en');
    await page.goto(`${baseUrl}/faq`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="page-faq"] [data-testid="faq-item"]');
    const expanded = () => page.$$eval('[data-testid="faq-item"] details', (items) => items.map((item) => String((item as HTMLDetailsElement).open)));
    const initial = await expanded();
    expect(initial.length).to.be.at.least(8);
    expect(new Set(initial)).to.deep.equal(new Set(['false']));
    expect(await page.$$eval('[data-testid="faq-answer"]', (answers) => answers.every((answer) => !answer.checkVisibility()))).to.equal(true);
    const questions = await page.$$('[data-testid="faq-question"]');
    await questions[1]!.click();
    await questions[3]!.click();
    expect((await expanded()).map((value, index) => (value === 'true' ? index : -1)).filter((index) => index >= 0)).to.deep.equal([1, 3]);
    await questions[1]!.click();
    expect((await expanded()).map((value, index) => (value === 'true' ? index : -1)).filter((index) => index >= 0)).to.deep.equal([3]);
    // The questions are headings under the page's h1.
    expect(await page.$$eval('[data-testid="faq-item"] h2', (headings) => headings.length)).to.equal(initial.length);
    await page.close();
  });

  it('the footer links every static page; they open in the app without a full reload', async () => {
    const page = await pageIn('en');
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    const links = await page.$$eval('[data-testid^="footer-link-"]', (anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
    expect(links).to.include.members([
      '/support',
      '/faq',
      '/howitworks',
      '/termsandconditions',
      '/privacypolicy',
      '/aboutus',
      '/amlpolicy',
      '/copyrightpolicy',
      '/refundpolicy',
    ]);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await page.click('[data-testid="footer-link-refundpolicy"]');
    await page.waitForSelector('[data-testid="page-refundpolicy"] [data-testid="content-section"]');
    await page.click('[data-testid="footer-link-faq"]');
    await page.waitForSelector('[data-testid="page-faq"]');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).to.equal(42);
    await page.close();
  });

  it('a static page (Chakra, loaded on demand) leaves the plain-CSS shell exactly as it was', async () => {
    const page = await pageIn('en');
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    // The look of the navigation bar and the footer: every element's box and the styles that show.
    const shell = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('header *, footer, footer *')].map((element) => {
          const style = getComputedStyle(element);
          const box = element.getBoundingClientRect();
          return [
            element.tagName,
            Math.round(box.x),
            Math.round(box.width),
            Math.round(box.height),
            style.fontFamily,
            style.fontSize,
            style.fontWeight,
            style.lineHeight,
            style.color,
            style.backgroundColor,
            style.borderTopWidth,
            style.borderTopColor,
            style.padding,
            style.margin,
            style.textDecorationLine,
          ].join('|');
        }),
      );
    const before = await shell();
    expect(await page.$$eval('style[data-emotion]', (styles) => styles.length)).to.equal(0);
    // Clicked from script: no mouse left hovering over a link, no focus ring.
    await page.$eval('[data-testid="footer-link-support"]', (link) => (link as HTMLElement).click());
    await page.waitForSelector('[data-testid="page-support"]');
    expect(await page.$$eval('style[data-emotion]', (styles) => styles.length)).to.be.greaterThan(0);
    expect(await shell()).to.deep.equal(before);
    await page.close();
  });

  it('on a phone, the static pages fit the screen', async () => {
    const page = await pageIn('ko', PHONE);
    for (const name of ['termsandconditions', 'aboutus', 'support']) {
      await page.goto(`${baseUrl}/${name}`, { waitUntil: 'networkidle0' });
      await page.waitForSelector(`[data-testid="page-${name}"]`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), name).to.equal(true);
    }
    await page.close();
  });

  it('keeps the static pages, admin, panel, login-form and Chakra code out of the storefront first download', async () => {
    for (const path of ['/', '/platform/1']) {
      const page = await pageIn('en');
      const scripts: string[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.push(response.url());
      });
      await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle0' });
      const bodies = (await Promise.all(scripts.map(async (url) => (await fetch(url)).text()))).join('\n');
      // 'ChakraContext' (Chakra's provider) and 'data-emotion' (emotion's style sheets): the first screen is plain CSS.
      for (const marker of [
        'page-admin',
        'page-user-panel',
        'login-step',
        'field-error-',
        '30 SGD',
        'Information Commissioner',
        'ChakraContext',
        'data-emotion',
      ]) {
        expect(bodies, `${path}: ${marker}`).to.not.contain(marker);
      }
      expect(await page.$$eval('style[data-emotion]', (styles) => styles.length), `${path}: emotion style sheets`).to.equal(0);
      await page.close();
    }
  });
});
