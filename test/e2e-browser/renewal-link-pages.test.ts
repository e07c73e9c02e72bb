/**
 * The renewal e-mails' links in Chromium on a phone (issue 35, item 2): an English buyer paying in
 * euros and a Korean buyer paying in won open the links of the e-mails they got by SMTP, at 390
 * and 320 px. The pages are the shop's (header, footer), in the order's language, fit the screen
 * without sideways scroll, say the platform, amount and date as the e-mail does, and their button
 * works (the cancel link's, here).
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import type { ExpiryFlow, RenewalFlow } from '@subshare/core';
import { buyByCard, moveClockTo, remindersDelivered, useRenewalShop } from '../support/auto-renewal.js';
import { openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { harness, useWorker } from '../support/harness.js';
import type { CapturedMail } from '../support/smtp.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

const DAY = 24 * 3600_000;
const NARROW = { width: 320, height: 640 };

describe('browser: the renewal links’ pages on a phone, in the order’s language', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  before(async function () {
    this.timeout(300_000);
    ensureWebBuilt();
    browser = await openBrowser();
  });
  // Registered before the shop's: after hooks run in order, so the browser lets go of its connections first.
  after(() => browser?.close());

  const shop = useRenewalShop();
  let renewal: RenewalFlow;
  let expiry: ExpiryFlow;
  before(() => ({ renewal, expiry } = shop));

  const clean = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent).then(clean);
  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /**
   * The elements of the page's own content and footer that reach past the viewport's right edge.
   * (The header row's fit at 320 px is issue 35 item 1's, tested over every route by its own test.)
   */
  const overflowing = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('main *, footer *')]
        .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map((element) => `${element.tagName} ${element.getAttribute('data-testid') ?? ''}`),
    );

  async function reminderOf(subscription: { id: number; ends_at: Date }, to: string, subject: RegExp): Promise<CapturedMail> {
    moveClockTo(new Date(subscription.ends_at.getTime() - 2 * DAY - 3600_000));
    const { subscriptionIds } = await expiry.remindDue();
    expect(subscriptionIds).to.include(subscription.id);
    const mail = await harness().mailTo(to, (message) => subject.test(message.subject));
    await remindersDelivered();
    return mail;
  }

  const linkIn = (mail: CapturedMail, purpose: 'cancel' | 'pay') =>
    new RegExp(`https?://\\S+/api/subscribe/autorenew/${purpose}\\?token=[\\w%.-]+`).exec(mail.text)![0];
  const factOf = (mail: CapturedMail, label: string) =>
    mail.text
      .split('\n')
      .find((line) => line.startsWith(`${label}: `))!
      .slice(label.length + 2)
      .trim();

  for (const c of [
    {
      lang: 'en' as const,
      languageId: 1 as const,
      currency: 'EUR' as const,
      subject: /renews on/,
      amount: 'Amount',
      date: 'Charge date',
      title: 'Cancel automatic renewal?',
      done: 'Automatic renewal cancelled',
      paySubject: /ends in/,
      payTitle: /^Renew your .+ subscription$/,
      note: /^You will be charged €\d+\.\d{2} /,
    },
    {
      lang: 'ko' as const,
      languageId: 2 as const,
      currency: 'KRW' as const,
      subject: /자동 연장됩니다/,
      amount: '결제 금액',
      date: '결제 예정일',
      title: '자동 연장을 해지할까요?',
      done: '자동 연장이 해지되었어요',
      paySubject: /만료됩니다/,
      payTitle: / 구독 연장하기$/,
      note: /₩[\d,]+이 결제됩니다\.$/,
    },
  ]) {
    it(`cancel and pay links at 390 and 320 px (${c.lang})`, async () => {
      const { buyer, subscription } = await buyByCard(shop, { languageId: c.languageId, currency: c.currency });
      await renewal.renewDue();
      const mail = await reminderOf(subscription, buyer.email, c.subject);
      const page = await browser.newPage(PHONE);
      try {
        // The browser's own language is the other one: the page follows the order.
        await page.setExtraHTTPHeaders({ 'Accept-Language': c.lang === 'ko' ? 'en-US,en;q=0.9' : 'ko-KR,ko;q=0.9' });
        await page.goto(linkIn(mail, 'cancel'));
        expect(await page.$eval('html', (html) => html.lang)).to.equal(c.lang);
        expect(await text(page, '[data-testid="link-title"]')).to.equal(c.title);
        const facts = await page.$$eval('[data-testid="link-fact"]', (cells) => cells.map((cell) => cell.textContent?.trim()));
        expect(facts).to.include(factOf(mail, c.amount)).and.to.include(factOf(mail, c.date));
        expect(await page.$('[data-testid="nav-home"]'), 'the header').to.not.equal(null);
        expect(await page.$('[data-testid="footer"]'), 'the footer').to.not.equal(null);
        expect(await sideways(page), 'no sideways scroll at 390 px').to.equal(0);
        await page.setViewport(NARROW);
        expect(await overflowing(page), 'the page fits 320 px').to.deep.equal([]);
        const button = await page.$eval('[data-testid="link-confirm"]', (element) => element.getBoundingClientRect().right);
        expect(button, 'the button is on screen').to.be.at.most(NARROW.width);
        await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('[data-testid="link-confirm"]')]);
        expect(await text(page, '[data-testid="link-title"]')).to.equal(c.done);
        expect(await overflowing(page)).to.deep.equal([]);
      } finally {
        await page.close();
      }

      // The expiry reminder of a buyer without automatic renewal: its pay link's page.
      const other = await buyByCard(shop, { languageId: c.languageId, currency: c.currency, renewAutomatically: false });
      const payMail = await reminderOf(other.subscription, other.buyer.email, c.paySubject);
      const pay = await browser.newPage(NARROW);
      try {
        await pay.goto(linkIn(payMail, 'pay'));
        expect(await pay.$eval('html', (html) => html.lang)).to.equal(c.lang);
        expect(await text(pay, '[data-testid="link-title"]')).to.match(c.payTitle);
        expect(await text(pay, '[data-testid="link-note"]')).to.match(c.note);
        expect(await overflowing(pay), 'the page fits 320 px').to.deep.equal([]);
        await pay.setViewport(PHONE);
        expect(await sideways(pay), 'no sideways scroll at 390 px').to.equal(0);
      } finally {
        await pay.close();
      }
    });
  }
});
