import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import type { ExpiryFlow, RenewalFlow } from '@subshare/core';
import { loginAs, type TestUser } from '../support/agent.js';
import { buyByCard, moveClockTo, remindersDelivered, renewalsApplied, subscriptionOf, useRenewalShop } from '../support/auto-renewal.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { harness, useWorker } from '../support/harness.js';
import { activation, createOrder, markPaidQuietly, type TestPlatform } from '../support/shop.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

const DAY = 24 * 3600_000;

/**
 * Automatic renewal in the buyer's panel (issue 28, item 6), in Chromium against the shop with the
 * local Stripe server: the state, the next charge's date and amount and the card; the switch off
 * and on again, kept after a reload and in the API's answer; the same in Korean; and the payment
 * link explanation for a subscription paid with a method that cannot be charged without the buyer.
 */
describe('browser: automatic renewal in the panel', function () {
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
  const { stripe } = shop;
  const knex = () => harness().knex;
  let base: string;
  let platform: TestPlatform;
  let renewal: RenewalFlow;
  let expiry: ExpiryFlow;
  before(() => ({ base, platform, renewal, expiry } = shop));

  const clean = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent).then(clean);
  const item = (subscriptionId: number) => `[data-testid="panel-active-item"][data-subscription-id="${subscriptionId}"]`;
  /** The date as the panel writes it in this language (the browser's own Intl, its time zone). */
  const dateIn = (page: Page, iso: string, culture: 'en' | 'ko') =>
    page.evaluate((at, locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)), iso, culture);

  /** The buyer's panel answer for one subscription, as the API gives it. */
  async function renewalByApi(buyer: TestUser, subscriptionId: number) {
    const response = await fetch(`${base}/api/user/getuserpanel?id=${buyer.id}&languageId=1`, { headers: buyer.auth });
    expect(response.status).to.equal(200);
    const panel = (await response.json()) as { subscribers: Array<{ subscribeId: number; autoRenew: Record<string, unknown> | null }> };
    return panel.subscribers.find((entry) => entry.subscribeId === subscriptionId)!.autoRenew!;
  }

  async function openPanel(buyer: TestUser, language: 'en' | 'ko', subscriptionId: number): Promise<Page> {
    const page = await loggedInPage(browser, base, buyer, { language });
    await page.goto(`${base}/user/${buyer.id}`);
    await page.waitForSelector(`${item(subscriptionId)} [data-testid^="panel-autorenew"]`, { visible: true });
    return page;
  }

  /** Flips the switch and waits until the panel shows the server's answer. */
  async function flip(page: Page, subscriptionId: number, to: boolean) {
    const box = `${item(subscriptionId)} [data-testid="panel-autorenew"]`;
    await page.click(`${box} [data-part="control"]`);
    await page.waitForSelector(`${box}[data-enabled="${to}"]`);
    await page.waitForFunction((selector) => !(document.querySelector(selector) as HTMLInputElement | null)?.disabled, {}, `${box} input`);
  }

  it('shows the state, next charge and card; the switch turns renewal off and on, kept after a reload and in the API (English)', async () => {
    const { buyer, subscription } = await buyByCard(shop, { last4: '4242' });
    await renewal.renewDue();
    const page = await openPanel(buyer, 'en', subscription.id);
    const box = `${item(subscription.id)} [data-testid="panel-autorenew"]`;
    const date = await dateIn(page, subscription.ends_at.toISOString(), 'en');
    expect(await page.$eval(box, (element) => element.getAttribute('data-enabled'))).to.equal('true');
    expect(await text(page, `${box} label`)).to.equal('Renew automatically');
    expect(await text(page, `${box} [data-testid="panel-autorenew-note"]`)).to.equal(
      `On: €4.99 will be charged to the card ending in 4242 on ${date}. You get an e-mail 3 days before, with a cancel link.`,
    );
    expect(await page.$eval(`${box} input`, (input) => (input as HTMLInputElement).checked)).to.equal(true);
    // Renewing automatically: no "Renew" button beside the switch (the note says when the charge comes).
    expect(await page.$(`${item(subscription.id)} [data-testid="panel-renew"]`)).to.equal(null);

    await flip(page, subscription.id, false);
    expect(await text(page, `${box} [data-testid="panel-autorenew-note"]`)).to.equal('Off: access ends on the end date unless you renew.');
    await page.waitForSelector(`${item(subscription.id)} [data-testid="panel-renew"]`, { visible: true });
    expect(await renewalByApi(buyer, subscription.id)).to.include({ enabled: false, nextChargeAt: null });
    await page.reload();
    await page.waitForSelector(`${box}[data-enabled="false"]`);
    expect(await page.$eval(`${box} input`, (input) => (input as HTMLInputElement).checked)).to.equal(false);

    await flip(page, subscription.id, true);
    expect(await text(page, `${box} [data-testid="panel-autorenew-note"]`)).to.contain('card ending in 4242');
    await page.reload();
    await page.waitForSelector(`${box}[data-enabled="true"]`);
    expect(await renewalByApi(buyer, subscription.id)).to.include({ enabled: true, cardLast4: '4242', nextChargeAt: subscription.ends_at.toISOString() });
    const audit = await knex()('audit_log')
      .where({ action: 'subscription.autorenew', target_id: String(subscription.id) })
      .orderBy('id');
    expect(audit.map((row: { details: { enabled: boolean; via: string } }) => [row.details.enabled, row.details.via])).to.deep.equal([
      [false, 'panel'],
      [true, 'panel'],
    ]);
    await page.close();
  });

  it("a bare /user/{id}?cardSaved= (a crafted link) switches nothing on; Stripe's own return, with its session, does", async () => {
    const { buyer, subscription } = await buyByCard(shop, { last4: '3220' });
    await renewal.renewDue();
    const off = await fetch(`${base}/api/subscribe/autorenew`, {
      method: 'POST',
      headers: { ...buyer.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subscriptionId: subscription.id, enabled: false }),
    });
    expect(off.status).to.equal(200);
    const box = `${item(subscription.id)} [data-testid="panel-autorenew"]`;
    const page = await loggedInPage(browser, base, buyer, { language: 'en' });
    await page.goto(`${base}/user/${buyer.id}?cardSaved=${subscription.id}`);
    await page.waitForSelector(`${box}[data-enabled="false"]`, { visible: true });
    expect(await renewalByApi(buyer, subscription.id)).to.include({ enabled: false });
    const audit = await knex()('audit_log').where({ action: 'subscription.autorenew', target_id: String(subscription.id) });
    expect(audit).to.have.length(1);
    await page.close();

    // Paid by card without the opt-in, saved a card on Stripe's page: Stripe's return turns renewal on.
    const second = await buyByCard(shop, { renewAutomatically: false });
    const opened = await fetch(`${base}/api/subscribe/autorenew/card`, {
      method: 'POST',
      headers: { ...second.buyer.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subscriptionId: second.subscription.id }),
    });
    const { url } = (await opened.json()) as { url: string };
    const setup = [...stripe.sessions.values()].find((session) => session.url === url)!;
    stripe.pay(setup.id, { card: { last4: '0077' } });
    const back = await loggedInPage(browser, base, second.buyer, { language: 'en' });
    await back.goto(setup.success_url!.replace('{CHECKOUT_SESSION_ID}', setup.id));
    const secondBox = `${item(second.subscription.id)} [data-testid="panel-autorenew"]`;
    await back.waitForSelector(`${secondBox}[data-enabled="true"]`, { visible: true });
    expect(await renewalByApi(second.buyer, second.subscription.id)).to.include({ enabled: true, cardLast4: '0077' });
    // The return is taken off the address: a reload asks nothing again.
    expect(new URL(back.url()).search).to.equal('');
    await back.close();
  });

  it('says the same in Korean, and the switch works there too', async () => {
    const { buyer, subscription } = await buyByCard(shop, { last4: '1881', languageId: 2 });
    await renewal.renewDue();
    const page = await openPanel(buyer, 'ko', subscription.id);
    const box = `${item(subscription.id)} [data-testid="panel-autorenew"]`;
    const date = await dateIn(page, subscription.ends_at.toISOString(), 'ko');
    expect(await text(page, `${box} label`)).to.equal('자동 연장');
    const note = await text(page, `${box} [data-testid="panel-autorenew-note"]`);
    expect(note).to.match(new RegExp(`^켜짐: ${date.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}에 끝자리 1881 카드로 €4\\.99[가이] 결제됩니다\\. `));
    expect(note).to.contain('3일 전에 해지 링크가 담긴 이메일을 보내 드려요.');

    await flip(page, subscription.id, false);
    expect(await text(page, `${box} [data-testid="panel-autorenew-note"]`)).to.equal('꺼짐: 연장하지 않으면 종료일에 이용이 끝납니다.');
    await page.reload();
    await page.waitForSelector(`${box}[data-enabled="false"]`);
    expect(await renewalByApi(buyer, subscription.id)).to.include({ enabled: false });
    await flip(page, subscription.id, true);
    await page.reload();
    await page.waitForSelector(`${box}[data-enabled="true"]`);
    expect(await renewalByApi(buyer, subscription.id)).to.include({ enabled: true });
    await page.close();
  });

  it('paid by card without the opt-in: the switch opens Stripe to save a card, and back in the panel renewal is on with it; Back on Stripe changes nothing (Korean)', async () => {
    const { buyer, subscription } = await buyByCard(shop, { renewAutomatically: false });
    const page = await openPanel(buyer, 'en', subscription.id);
    const box = `${item(subscription.id)} [data-testid="panel-autorenew"]`;
    expect(await text(page, `${box} [data-testid="panel-autorenew-note"]`)).to.equal(
      "Off: turn it on to save a card on Stripe's secure page; renewal starts once the card is saved.",
    );
    expect(await page.$eval(`${box} input`, (input) => (input as HTMLInputElement).disabled)).to.equal(false);
    await Promise.all([page.waitForNavigation(), page.click(`${box} [data-part="control"]`)]);
    const setup = [...stripe.sessions.values()].find((session) => session.url === page.url())!;
    expect(setup).to.include({ mode: 'setup', currency: 'eur' });
    await Promise.all([page.waitForNavigation(), page.click('[data-testid="stripe-pay"]')]);
    // Back in the panel: switched on with the card saved there, and the address is the panel's own again.
    await page.waitForSelector(`${box}[data-enabled="true"]`);
    const last4 = stripe.cardsOf(setup.customer!)[0].card.last4;
    expect(await text(page, `${box} [data-testid="panel-autorenew-note"]`)).to.contain(`card ending in ${last4}`);
    await page.waitForFunction((path) => location.pathname + location.search === path, {}, `/user/${buyer.id}`);
    expect(await renewalByApi(buyer, subscription.id)).to.include({ enabled: true, canEnable: true, cardLast4: last4 });
    await page.close();

    const other = await buyByCard(shop, { renewAutomatically: false, languageId: 2 });
    const korean = await openPanel(other.buyer, 'ko', other.subscription.id);
    const otherBox = `${item(other.subscription.id)} [data-testid="panel-autorenew"]`;
    expect(await text(korean, `${otherBox} [data-testid="panel-autorenew-note"]`)).to.equal(
      '꺼짐: 켜면 Stripe 보안 페이지에서 카드를 저장할 수 있어요. 카드를 저장하면 자동 연장이 시작됩니다.',
    );
    await Promise.all([korean.waitForNavigation(), korean.click(`${otherBox} [data-part="control"]`)]);
    await Promise.all([korean.waitForNavigation(), korean.click('[data-testid="stripe-cancel"]')]);
    await korean.waitForSelector(`${otherBox}[data-enabled="false"]`);
    expect(new URL(korean.url()).search).to.equal('');
    expect(await korean.$(`${otherBox} [data-testid="panel-autorenew-error"]`)).to.equal(null);
    expect(await renewalByApi(other.buyer, other.subscription.id)).to.include({ enabled: false, canEnable: false });
    await korean.close();
  });

  it('staff: the dashboard shows the expected renewal revenue and the failed renewals, the user page each renewal, in English and Korean', async () => {
    // A renewal declined at its end date, waiting for its retry.
    const declined = await buyByCard(shop, { last4: '0341' });
    await renewal.renewDue();
    stripe.cardBehaves(declined.card.id, 'decline');
    moveClockTo(declined.subscription.ends_at.getTime() - 2 * DAY - 3600_000); // more than 48 hours ahead (RENEWAL_NOTICE_HOURS)
    await expiry.remindDue();
    await harness().mailTo(declined.buyer.email, (mail) => /renews on/.test(mail.subject));
    await remindersDelivered();
    // The subscriptions of the tests above end before this one: they renew here, and their next
    // periods count in the expected revenue once the worker has extended them.
    moveClockTo(declined.subscription.ends_at.getTime() + 60_000);
    await renewal.renewDue();
    await renewalsApplied();

    const { buyer, subscription } = await buyByCard(shop, { last4: '3056' });
    await renewal.renewDue();
    // Ten days before its end, whatever the month's length: it is among the next 30 days' renewals.
    moveClockTo(subscription.ends_at.getTime() - 10 * DAY);
    const admin = await loginAs('admin', { app: shop.app });
    const dashboard = (await (await fetch(`${base}/api/admin/dashboard`, { headers: admin.auth })).json()) as {
      renewals: { expected: Array<{ amount: number; currencyCode: string }>; failedCount: number };
    };
    expect(dashboard.renewals.expected.find((entry) => entry.currencyCode === 'EUR')?.amount).to.be.at.least(4.99);
    expect(dashboard.renewals.failedCount).to.equal(1);
    for (const [language, heading, count, detail, code] of [
      ['en', 'Automatic renewals', 'Failed in the last 30 days: 1', 'declined, retrying, 1 of 3 tries', 'decline code insufficient_funds'],
      ['ko', '자동 연장', '최근 30일 실패: 1건', '거절됨, 재시도 예정, 3회 중 1회 시도', '거절 코드 insufficient_funds'],
    ] as const) {
      const page = await loggedInPage(browser, base, admin, { language, role: 2 });
      await page.goto(`${base}/jve`);
      await page.waitForSelector('[data-testid="admin-home"][data-status="loaded"]');
      expect(await text(page, '#admin-renewals-heading')).to.equal(heading);
      const shown = await page.$$eval('[data-testid="admin-renewals-expected"]', (entries) =>
        entries.map((entry) => [entry.getAttribute('data-currency'), entry.textContent]),
      );
      const formatted = await page.evaluate(
        (expected, culture) =>
          expected.map((entry) => [
            entry.currencyCode,
            new Intl.NumberFormat(culture, { style: 'currency', currency: entry.currencyCode }).format(entry.amount),
          ]),
        dashboard.renewals.expected,
        language,
      );
      expect(shown).to.deep.equal(formatted);
      expect(await text(page, '[data-testid="admin-renewals-failed-count"]')).to.equal(count);
      const failed = `[data-testid="admin-renewals-failed"][data-subscription-id="${declined.subscription.id}"]`;
      const euro = await page.evaluate((culture) => new Intl.NumberFormat(culture, { style: 'currency', currency: 'EUR' }).format(4.99), language);
      expect(await text(page, failed))
        .to.contain(`${detail}, ${euro}`)
        .and.to.contain(code);
      expect(await page.$eval(`${failed} a`, (link) => link.getAttribute('href'))).to.equal(`/jve/user/${declined.buyer.id}`);

      await page.goto(`${base}/jve/user/${buyer.id}`);
      const field = `[data-testid="admin-active-item"][data-subscription-id="${subscription.id}"] [data-testid="admin-item-renewal-state"]`;
      await page.waitForSelector(field);
      const date = await dateIn(page, subscription.ends_at.toISOString(), language);
      const amount = await page.evaluate((culture) => new Intl.NumberFormat(culture, { style: 'currency', currency: 'EUR' }).format(4.99), language);
      expect(await text(page, field)).to.equal(
        language === 'en' ? `On, card ending in 3056 · Next charge: ${amount} on ${date}` : `켜짐, 끝자리 3056 카드 · 다음 결제: ${date}, ${amount}`,
      );
      await page.close();
    }
  });

  it('a subscription paid with a method without saved cards explains the payment link, in English and Korean, with no switch', async () => {
    const buyer = await loginAs('user', { app: shop.app });
    const orderId = await createOrder(
      { id: buyer.id, email: buyer.email, name: null, photoUrl: null, role: 0, isEmailVerified: true, languageId: 1, sessionId: 'panel-renewal' },
      platform,
    );
    // Paid with a Payssion method (2), which Stripe cannot charge without the buyer.
    await markPaidQuietly(orderId);
    await activation().activate(orderId);
    const subscription = await subscriptionOf(orderId);
    expect(await renewalByApi(buyer, subscription.id)).to.include({ mode: 'link', enabled: false });
    for (const [language, expected] of [
      ['en', 'This payment method cannot renew by itself: 3 days before the end we e-mail you a one-click link to pay the renewal.'],
      ['ko', '이 결제 수단은 자동으로 연장할 수 없어요. 종료 3일 전에 한 번에 결제할 수 있는 링크를 이메일로 보내 드려요.'],
    ] as const) {
      const page = await openPanel(buyer, language, subscription.id);
      expect(await text(page, `${item(subscription.id)} [data-testid="panel-autorenew-link"]`)).to.equal(expected);
      expect(await page.$(`${item(subscription.id)} [data-testid="panel-autorenew"]`)).to.equal(null);
      await page.close();
    }
  });
});
