/**
 * The pages the renewal e-mails' links open are the shop's pages (issue 35, item 2): an English
 * buyer paying in euros and a Korean buyer paying in won get their reminder by SMTP, and the
 * links in it open pages in the shop's frame (header, footer), in the order's language, naming
 * the platform, the period, the amount (the shop's one money format) and the date as the e-mail
 * writes it. The pay page says what will be charged before its button.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import type { ExpiryFlow, RenewalFlow } from '@subshare/core';
import { api } from '../support/agent.js';
import { buyByCard, moveClockTo, remindersDelivered, useRenewalShop } from '../support/auto-renewal.js';
import { harness, useWorker } from '../support/harness.js';
import type { CapturedMail } from '../support/smtp.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

const DAY = 24 * 3600_000;

/** The visible text of a page: no tags, no styles, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<(style|script|noscript)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A facts row of the e-mail's text part ("Amount: €4.99"). */
function fact(mail: CapturedMail, label: string): string {
  const line = mail.text.split('\n').find((candidate) => candidate.startsWith(`${label}: `));
  expect(line, `the e-mail's "${label}" row`).to.be.a('string');
  return line!.slice(label.length + 2).trim();
}

/** The path and token of a link in the e-mail. */
function linkIn(mail: CapturedMail, purpose: 'cancel' | 'pay'): { path: string; token: string } {
  const link = new RegExp(`https?://\\S+/api/subscribe/autorenew/${purpose}\\?token=[\\w%.-]+`).exec(mail.text)![0];
  return { path: link.slice(link.indexOf('/api/')), token: decodeURIComponent(new URL(link).searchParams.get('token')!) };
}

/** The page is the shop's: its header and footer, `<html lang>`, no script. */
function expectShopFrame(html: string, lang: 'en' | 'ko'): void {
  expect(html).to.match(new RegExp(`<html lang="${lang}"`));
  expect(html, 'the header').to.contain('data-testid="nav-home"');
  expect(html, 'the footer').to.contain('data-testid="footer"');
  expect(html, 'a page without script').to.not.match(/<script\b[^>]*\bsrc=/);
  expect(html).to.contain('name="viewport"');
}

/** The amount a page shows: won and euros each written one way, by the one formatter. */
function expectMoneyForm(amount: string, currency: 'EUR' | 'KRW'): void {
  expect(amount).to.match(currency === 'KRW' ? /^₩\d{1,3}(,\d{3})*$/ : /^€\d{1,3}(,\d{3})*\.\d{2}$/);
}

describe('renewal links open the shop’s pages, in the order’s language', function () {
  this.timeout(90_000);
  const shop = useRenewalShop();
  let app: Express;
  let expiry: ExpiryFlow;
  let renewal: RenewalFlow;
  before(function () {
    this.timeout(180_000);
    ensureWebBuilt();
    ({ app, expiry, renewal } = shop);
  });

  /** The reminder pass for this subscription, and its e-mail delivered by SMTP. */
  async function reminderOf(subscription: { id: number; ends_at: Date }, to: string, subject: RegExp): Promise<CapturedMail> {
    moveClockTo(new Date(subscription.ends_at.getTime() - 2 * DAY - 3600_000));
    const { subscriptionIds } = await expiry.remindDue();
    expect(subscriptionIds).to.include(subscription.id);
    const mail = await harness().mailTo(to, (message) => subject.test(message.subject));
    await remindersDelivered();
    return mail;
  }

  const cases = [
    {
      name: 'an English buyer paying in euros',
      languageId: 1 as const,
      currency: 'EUR' as const,
      lang: 'en' as const,
      reminderSubject: /^Your (.+) subscription renews on (.+)$/,
      amountLabel: 'Amount',
      dateLabel: 'Charge date',
      period: '1 month',
      cancelTitle: 'Cancel automatic renewal?',
      cancelledTitle: 'Automatic renewal cancelled',
      expirySubject: /^Your (.+) subscription ends in/,
      expiryEnd: /ends on (.+?)\. Renew now/,
      payNote: (amount: string) => `You will be charged ${amount}`,
      payLabel: (amount: string) => `Pay ${amount}`,
    },
    {
      name: 'a Korean buyer paying in won',
      languageId: 2 as const,
      currency: 'KRW' as const,
      lang: 'ko' as const,
      reminderSubject: /^(.+) 구독이 (.+)에 자동 연장됩니다$/,
      amountLabel: '결제 금액',
      dateLabel: '결제 예정일',
      period: '1개월',
      cancelTitle: '자동 연장을 해지할까요?',
      cancelledTitle: '자동 연장이 해지되었어요',
      expirySubject: /^(.+) 구독이 \d+일 후 만료됩니다$/,
      expiryEnd: /\)이 (.+?)에 만료됩니다/,
      payNote: (amount: string) => `${amount}이 결제됩니다`,
      payLabel: (amount: string) => `${amount} 결제하기`,
    },
  ];

  for (const c of cases) {
    it(`the reminder's cancel link: ${c.name}`, async () => {
      const { buyer, subscription } = await buyByCard(shop, { languageId: c.languageId, currency: c.currency });
      await renewal.renewDue(); // learns the card of the opt-in payment
      const mail = await reminderOf(subscription, buyer.email, c.reminderSubject);
      const platform = c.reminderSubject.exec(mail.subject)![1]!;
      const amount = fact(mail, c.amountLabel);
      const date = fact(mail, c.dateLabel);
      expectMoneyForm(amount, c.currency);
      const { path, token } = linkIn(mail, 'cancel');

      // A browser opens the link, whatever its own language: the page is in the order's.
      const page = await api(app)
        .get(path)
        .set('Accept', 'text/html')
        .set('Accept-Language', c.lang === 'ko' ? 'en-US,en;q=0.9' : 'ko-KR,ko;q=0.9')
        .expect(200);
      expectShopFrame(page.text, c.lang);
      const text = textOf(page.text);
      expect(text).to.contain(c.cancelTitle).and.to.contain(platform).and.to.contain(c.period).and.to.contain(amount).and.to.contain(date);
      expect(text, 'no ISO date').to.not.match(/\d{4}-\d{2}-\d{2}/);
      expect(page.text).to.contain('method="post"').and.to.contain('data-testid="link-confirm"');

      const done = await api(app).post('/api/subscribe/autorenew/cancel').set('Accept', 'text/html').type('form').send({ token }).expect(200);
      expectShopFrame(done.text, c.lang);
      expect(textOf(done.text)).to.contain(c.cancelledTitle).and.to.contain(platform).and.to.contain(date);
    });

    it(`the expiry reminder's pay link says what will be charged before the button: ${c.name}`, async () => {
      const { buyer, subscription } = await buyByCard(shop, { languageId: c.languageId, currency: c.currency, renewAutomatically: false });
      const mail = await reminderOf(subscription, buyer.email, c.expirySubject);
      const platform = c.expirySubject.exec(mail.subject)![1]!;
      const end = c.expiryEnd.exec(mail.text)![1]!;
      const { path } = linkIn(mail, 'pay');

      const page = await api(app).get(path).set('Accept', 'text/html').expect(200);
      expectShopFrame(page.text, c.lang);
      const text = textOf(page.text);
      expect(text).to.contain(platform).and.to.contain(c.period).and.to.contain(end);
      const amount = /data-testid="link-note"[^>]*>([^<]*)</.exec(page.text)![1]!;
      const charged = /[€₩][\d,.]+/.exec(amount)![0];
      expectMoneyForm(charged, c.currency);
      expect(amount).to.contain(c.payNote(charged));
      expect(page.text.indexOf('data-testid="link-note"'), 'the amount is said before the button').to.be.below(page.text.indexOf('data-testid="link-confirm"'));
      expect(text).to.contain(c.payLabel(charged));
    });
  }

  it('a link that names no order answers in the visitor’s language, in the frame', async () => {
    const page = await api(app)
      .get('/api/subscribe/autorenew/pay?token=forged.token')
      .set('Accept', 'text/html')
      .set('Accept-Language', 'ko-KR,ko;q=0.9')
      .expect(404);
    expectShopFrame(page.text, 'ko');
    expect(textOf(page.text)).to.contain('유효하지 않은 링크');
    const json = await api(app).get('/api/subscribe/autorenew/pay?token=forged.token').expect(404);
    expect(json.body).to.include({ code: 'renewal_link_invalid' });
  });
});
