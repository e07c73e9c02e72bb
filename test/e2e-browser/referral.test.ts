import { expect } from 'chai';
import type { Container } from 'inversify';
import type { Page } from 'puppeteer-core';
import { ReferralFlow } from '@subshare/core';
import { withParticle } from '@subshare/core/korean';
import { formatMoney } from '@subshare/core/storefront';
import { listen } from '@subshare/http';
import { createUser, logIn, uniqueEmail } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { onFreePort } from '../support/ports.js';
import { loggedInPage, openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

const HOUR = 3_600_000;

const WORDS = {
  en: {
    invite: 'Invite friends',
    months: '12 months',
    noCredit: 'No credit yet',
    welcome: 'Welcome discount',
    subject: (amount: string) => `You earned ${amount} in credit`,
    accept: 'en-GB,en;q=0.9',
  },
  ko: {
    invite: '친구 초대',
    months: '12개월',
    noCredit: '아직 적립금이 없습니다',
    welcome: '첫 주문 환영 할인',
    subject: (amount: string) => `${withParticle(amount, '이')} 적립되었습니다`,
    accept: 'ko-KR,ko;q=0.9',
  },
} as const;

/**
 * A referral link from the first visit to the inviter's credit e-mail, in both languages: the
 * inviter reads the link in "Invite friends", a visitor opens it, signs up with the mailed code,
 * pays (the demo provider) with the welcome discount; once the refund window has passed (the
 * shop's clock moved) the grant job rewards the inviter, whose e-mail arrives by SMTP and whose
 * panel shows the credit.
 */
describe('browser: a referral link, from the first visit to the inviter’s credit', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let container: Container;
  let server: { close(): Promise<void> } | undefined;

  before(async function () {
    this.timeout(240_000);
    ensureWebBuilt();
    // The invitation link and the demo checkout are built from PUBLIC_URL: a server whose public URL is its address.
    const started = await onFreePort((port) => {
      const world = harness().appWith({ PUBLIC_URL: `http://127.0.0.1:${port}` });
      container = world.container;
      return listen(world.app, port, '127.0.0.1');
    });
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const text = (page: Page, testId: string) => page.$eval(`[data-testid="${testId}"]`, (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim());
  const step = (page: Page, name: string) => page.waitForSelector(`[data-testid="login-step"][data-step="${name}"]`, { visible: true });

  async function typeInto(page: Page, testId: string, value: string) {
    const field = await page.waitForSelector(`[data-testid="${testId}"]`, { visible: true });
    await field!.click({ count: 3 });
    await field!.type(value);
  }

  async function openInvite(page: Page, userId: number) {
    await page.goto(`${baseUrl}/user/${userId}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="panel-invite"][data-status="ready"]');
  }

  for (const language of ['en', 'ko'] as const) {
    const w = WORDS[language];

    it(`${language === 'en' ? 'in English' : 'in Korean, on a phone'}: the link, a sign-up by it, a paid first order, the reward after the refund window`, async () => {
      const created = await createUser({ languageId: language === 'ko' ? 2 : 1 });
      const inviter = await logIn(created);
      const inviterPage = await loggedInPage(browser, baseUrl, inviter, { language });
      await openInvite(inviterPage, inviter.id);
      expect(await inviterPage.$eval('#panel-invite-heading', (element) => element.textContent)).to.equal(w.invite);
      expect(await text(inviterPage, 'panel-invite-intro')).to.contain(w.months);
      const link = await text(inviterPage, 'panel-invite-link');
      const code = await inviterPage.$eval('[data-testid="panel-invite-link"]', (element) => element.getAttribute('data-code'));
      expect(link).to.equal(`${baseUrl}/?ref=${code}`);
      expect(await text(inviterPage, 'panel-invite-earned')).to.equal(w.noCredit);
      // Share is offered only where the browser has a share sheet.
      const canShare = await inviterPage.evaluate(() => typeof navigator.share === 'function');
      expect((await inviterPage.$('[data-testid="panel-invite-share"]')) !== null).to.equal(canShare);

      // The friend's first visit is the link; the storefront keeps the code and nothing else.
      const visitor = await browser.newPage(language === 'ko' ? PHONE : undefined);
      await visitor.setExtraHTTPHeaders({ 'Accept-Language': w.accept });
      await visitor.goto(link, { waitUntil: 'networkidle0' });
      expect(await visitor.evaluate(() => JSON.parse(localStorage.getItem('subshare.referral') ?? 'null')?.code)).to.equal(code);
      expect((await visitor.cookies()).map((cookie) => cookie.name)).to.not.include('ref');
      // The page is the home page for search engines too: its canonical address has no code.
      expect(new URL(await visitor.$eval('link[rel="canonical"]', (element) => (element as HTMLLinkElement).href)).pathname).to.equal('/');
      expect(await visitor.$eval('link[rel="canonical"]', (element) => (element as HTMLLinkElement).href)).to.not.contain('ref=');

      // Buying needs an account: the platform page sends the visitor to sign up.
      const email = uniqueEmail(`friend-${language}`);
      await visitor.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
      await (await visitor.waitForSelector('[data-testid="platform-go-to-payment"]', { visible: true }))!.click();
      await visitor.waitForFunction(() => location.pathname === '/login');
      await step(visitor, 'check');
      await typeInto(visitor, 'login-email', email);
      await visitor.click('[data-testid="login-continue"]');
      await step(visitor, 'register');
      await typeInto(visitor, 'login-password', 'friend-pass-1');
      await typeInto(visitor, 'login-confirm-password', 'friend-pass-1');
      await visitor.click('[data-testid="register-submit"]');
      await step(visitor, 'verify');
      const friend = await waitFor(() => harness().knex('users').where({ email }).first(), { what: 'the friend’s account' });
      const referral = await harness().knex('referrals').where({ invitee_user_id: friend.id }).first();
      expect(referral).to.include({ inviter_user_id: inviter.id, state: 'pending' });
      expect(await visitor.evaluate(() => localStorage.getItem('subshare.referral'))).to.equal(null);
      const codeMail = await harness().mailTo(email);
      await typeInto(visitor, 'verification-code', /\b(\d{6})\b/.exec(codeMail.text)![1]);
      await visitor.click('[data-testid="verification-submit"]');
      await visitor.waitForFunction(() => location.pathname === '/payment');
      const ready = await visitor.waitForSelector('[data-testid="page-payment"][data-status="ready"]', { timeout: 20_000 });
      const orderId = Number(await ready!.evaluate((element) => element.getAttribute('data-order-id')));

      // The first order carries the welcome discount, and the page asks for the discounted total.
      const order = await harness().knex('orders').where({ id: orderId }).first();
      expect(order.discount_source).to.equal('welcome');
      expect(Number(order.total_minor)).to.equal(Number(order.subtotal_minor) - Number(order.discount_minor));
      expect(await text(visitor, 'payment-discount-label')).to.equal(w.welcome);
      expect(await text(visitor, 'payment-total')).to.equal(formatMoney(Number(order.total_minor) / (order.currency === 'KRW' ? 1 : 100), order.currency));

      await Promise.all([visitor.waitForNavigation({ waitUntil: 'domcontentloaded' }), visitor.click('[data-testid="payment-pay"]')]);
      await visitor.waitForSelector('[data-testid="demo-banner"]');
      await Promise.all([visitor.waitForNavigation({ waitUntil: 'domcontentloaded' }), visitor.click('[data-testid="demo-pay"]')]);
      await visitor.waitForSelector('[data-testid="payment-result"][data-success="true"]');
      const payment = await waitFor(() => harness().knex('payments').where({ order_id: orderId, status: 'paid' }).first(), { what: 'the paid payment' });

      // Within the refund window nothing is granted; past it, the job rewards the inviter once.
      const flow = container.get(ReferralFlow);
      await flow.grantDue();
      expect((await harness().knex('referrals').where({ id: referral.id }).first()).state).to.equal('pending');
      harness().clock.advance(25 * HOUR);
      await flow.grantDue();
      const rewarded = await harness().knex('referrals').where({ id: referral.id }).first();
      expect(rewarded.state).to.equal('rewarded');
      const reward = Number(rewarded.reward_minor);
      expect(reward).to.equal(Math.round(Number(payment.amount_minor) / 10));
      const amount = formatMoney(reward / (payment.currency === 'KRW' ? 1 : 100), payment.currency);

      const mail = await harness().mailTo(inviter.email, (candidate) => candidate.subject === w.subject(amount));
      expect(mail.text).to.contain(w.months);
      expect(mail.text).to.contain(`${baseUrl}/user/${inviter.id}`);

      await openInvite(inviterPage, inviter.id);
      expect(await text(inviterPage, 'panel-invite-earned')).to.equal(amount);
      expect(await text(inviterPage, 'panel-invite-invited')).to.equal('1');
      expect(await text(inviterPage, 'panel-invite-rewarded')).to.equal('1');
      await visitor.close();
      await inviterPage.close();
    });
  }
});
