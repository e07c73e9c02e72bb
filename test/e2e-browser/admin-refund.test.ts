import { expect } from 'chai';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { CatalogService } from '@subshare/core';
import { listen } from '@subshare/http';
import { loginAs, type TestUser } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { closeSnackbar, loggedInPage, openBrowser, snackbarShown, type BrowserSession, type LoggedInPageOptions } from '../support/browser.js';
import { FakeCoinPal } from '../support/fake-coinpal.js';
import { createAccount, createPlatform as createTestPlatform, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';
import { KOREAN_ERRORS } from '../../packages/web/src/features/language/errors/ko.js';

useWorker();

const ROLE = { user: 0, moderator: 1, admin: 2 } as const;
const REFUND_PATH = '/api/order/refund';
const QUOTE_PATH = '/api/order/refundquote';

/**
 * The admin refund in Chromium (issue 13, "Where staff and buyers see it"), against a server
 * whose refund policy is 5 % + €0.50 within 24 hours: an admin opens a paid order (paid through
 * the demo provider, activated by the worker), clicks Refund, sees the amount paid, the fee with
 * its policy, the refund, the window and the provider, confirms with a reason (a double click
 * sends one request); the row then reads Refunded and the buyer's panel shows the order refunded
 * with no credentials. Past the window the override must be ticked; a CoinPal payment (the local
 * CoinPal, which has no refund call) needs the reference of the transfer staff made; when another admin refunded
 * the order first, the dialog shows the server's refusal (in Korean, by its code) and changes
 * nothing. A moderator sees no Refund button.
 */
describe('browser: the admin refund', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let server: { close(): Promise<void> } | undefined;
  let catalog: CatalogService;
  let admin: TestUser;
  let moderator: TestUser;
  const coinpal = new FakeCoinPal();
  let stopCoinPal: (() => Promise<void>) | undefined;
  const knex = () => harness().knex;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    // A policy with both parts of the fee, so the dialog shows "5% + €0.50".
    // Crypto through the local CoinPal; cards through the demo provider.
    stopCoinPal = (await coinpal.start()).stop;
    const { app, container } = harness().appWith({ ...coinpal.env, REFUND_FEE_PERCENT: '5', REFUND_FEE_EUR: '0.50', REFUND_WINDOW_HOURS: '24' });
    catalog = container.get(CatalogService);
    const started = await listen(app, 0, '127.0.0.1');
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
    [admin, moderator] = await Promise.all([loginAs('admin'), loginAs('moderator')]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await stopCoinPal?.();
  });

  function openPage(user: TestUser, role: number, options: Pick<LoggedInPageOptions, 'language'> = {}): Promise<Page> {
    return loggedInPage(browser, baseUrl, user, { role, ...options });
  }

  /** The refund calls the page makes, with their bodies, and the statuses answered. */
  function recordRefunds(page: Page) {
    const posts: Array<Record<string, unknown>> = [];
    const statuses: number[] = [];
    page.on('request', (request: HTTPRequest) => {
      if (new URL(request.url()).pathname === REFUND_PATH) posts.push(JSON.parse(request.postData() || '{}') as Record<string, unknown>);
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === REFUND_PATH) statuses.push(response.status());
    });
    return { posts, statuses };
  }

  const clean = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent).then(clean);
  const attr = (page: Page, selector: string, name: string) => page.$eval(selector, (element, attribute) => element.getAttribute(attribute), name);

  /** Nothing covers the page: the loading overlay and (outside a dialog) a closing dialog's backdrop are gone. */
  async function settled(page: Page, inDialog = false) {
    await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
    if (!inDialog) await page.waitForSelector('[data-scope="dialog"][data-part="backdrop"]', { hidden: true });
  }

  async function click(page: Page, selector: string, options: { inDialog?: boolean; count?: number } = {}) {
    await settled(page, options.inDialog);
    const element = await page.waitForSelector(selector, { visible: true });
    await element!.click({ count: options.count ?? 1 });
  }

  async function typeInto(page: Page, selector: string, value: string) {
    const field = await page.waitForSelector(selector, { visible: true });
    await field!.click();
    await field!.type(value);
  }

  /** The date-time as the admin area writes it in English ("Nov 27, 2026, 3:04 PM"). */
  const dateTime = (page: Page, date: Date) =>
    page.evaluate((iso: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)), date.toISOString());

  async function createPlatform(): Promise<TestPlatform> {
    const platform = await createTestPlatform({ slotsCount: 2, category: 1 });
    catalog.invalidate();
    return platform;
  }

  /**
   * An order of `buyer`, paid through the demo provider's card checkout (the verified path of a
   * real provider) and activated by the worker on the platform's free slot.
   */
  async function paidOrder(buyer: TestUser, platform: TestPlatform, method: 'card' | 'crypto' = 'card'): Promise<number> {
    const post = (path: string, body: unknown, headers: Record<string, string> = buyer.auth) =>
      fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
        redirect: 'manual',
      });
    const inserted = await post('/api/order/insert', {
      platformId: platform.id,
      typeId: platform.typeId,
      durationId: platform.durationId,
      quantity: 1,
      userId: buyer.id,
      languageId: 1,
      currency: 'EUR',
    });
    expect(inserted.status).to.equal(200);
    const orderId = ((await inserted.json()) as { id: number }).id;
    if (method === 'crypto') {
      // The buyer pays at the local CoinPal, which tells the shop by a signed notification.
      expect((await post('/api/payment/createcheckoutsessioncoinpal', { orderId })).status).to.equal(200);
      const payment = await knex()('payments').where({ order_id: orderId }).orderBy('id', 'desc').first();
      coinpal.setStatus(payment.provider_reference, 'paid');
      expect((await coinpal.deliver(`${baseUrl}/api/webhook/coinpal`, coinpal.notification(payment.provider_reference))).status).to.equal(200);
      await waitFor(async () => (await knex()('orders').where({ id: orderId }).first()).state === 2, { what: `order ${orderId} activated`, timeoutMs: 20_000 });
      return orderId;
    }
    const session = await post('/api/payment/createcheckoutsession', { orderId });
    expect(session.status).to.equal(200);
    const token = decodeURIComponent(new URL(((await session.json()) as { url: string }).url).pathname.split('/').pop()!);
    const paid = await fetch(`${baseUrl}/api/webhook/demo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, outcome: 'paid' }),
      redirect: 'manual',
    });
    expect(paid.status).to.equal(303);
    await waitFor(async () => (await knex()('orders').where({ id: orderId }).first()).state === 2, { what: `order ${orderId} activated`, timeoutMs: 20_000 });
    return orderId;
  }

  const orderRow = (orderId: number) => `[data-testid="admin-order-row"][data-order-id="${orderId}"]`;

  /** The completed orders, searched for this one (the list of a busy run may be long). */
  async function openOrder(page: Page, orderId: number, state = 2) {
    await page.goto(`${baseUrl}/jve/orders/${state}?search=${orderId}`);
    await page.waitForSelector(`[data-testid="admin-orders"][data-search="${orderId}"][data-status="loaded"] ${orderRow(orderId)}`);
  }

  async function openRefundDialog(page: Page, orderId: number) {
    await click(page, `${orderRow(orderId)} [data-testid="admin-order-refund"]`);
    await page.waitForSelector(`[data-testid="admin-refund-dialog"][data-order-id="${orderId}"][data-status="loaded"]`, { visible: true });
  }

  it('an admin refunds a paid order inside the window: the quote, one request for a double click, the row Refunded, the buyer panel without credentials', async () => {
    const platform = await createPlatform();
    const account = await createAccount(platform.id, 2);
    const buyer = await loginAs('user');
    const orderId = await paidOrder(buyer, platform);
    const paidAt = (await knex()('orders').where({ id: orderId }).first()).paid_at as Date;

    const page = await openPage(admin, ROLE.admin);
    const refunds = recordRefunds(page);
    await openOrder(page, orderId);
    const row = orderRow(orderId);
    expect(await attr(page, `${row} [data-testid="admin-order-state"]`, 'data-state')).to.equal('2');
    expect(await text(page, `${row} [data-testid="admin-order-state"]`)).to.equal('Completed');

    // The dialog: what the policy gives back, and when the window closes.
    await openRefundDialog(page, orderId);
    const dialog = '[data-testid="admin-refund-dialog"]';
    expect(await text(page, `${dialog} h2, ${dialog} [data-part="title"]`)).to.equal(`Refund order ${orderId}`);
    expect(await text(page, '[data-testid="admin-refund-paid"]')).to.equal('€4.99');
    // 5 % of 499 cents is 24.95, rounded to 25; plus 50 cents.
    expect(await text(page, '[data-testid="admin-refund-fee"]')).to.equal('€0.75 (5% + €0.50)');
    expect(await text(page, '[data-testid="admin-refund-amount"]')).to.equal('€4.24');
    expect(await attr(page, '[data-testid="admin-refund-window"]', 'data-inside')).to.equal('true');
    expect(await text(page, '[data-testid="admin-refund-window"]')).to.equal(
      `Within 24 h of payment, until ${await dateTime(page, new Date(paidAt.getTime() + 24 * 3600_000))}`,
    );
    expect(await text(page, '[data-testid="admin-refund-provider"]')).to.equal('Demo provider');
    // Inside the window there is no override to tick; a card payment needs no transfer reference.
    expect(await page.$('[data-testid="admin-refund-override"]')).to.equal(null);
    expect(await page.$('[data-testid="admin-refund-reference"]')).to.equal(null);

    // The reason is required: nothing is sent without it.
    await click(page, '[data-testid="admin-refund-confirm"]', { inDialog: true });
    await page.waitForSelector('[data-testid="field-error-reason"]', { visible: true });
    expect(await text(page, '[data-testid="field-error-reason"]')).to.equal('This field is required.');
    expect(refunds.posts).to.deep.equal([]);

    // A double click on Confirm: one request.
    await typeInto(page, '[data-testid="admin-refund-reason"]', '  The buyer asked within the day.  ');
    await click(page, '[data-testid="admin-refund-confirm"]', { inDialog: true, count: 2 });
    await snackbarShown(page, `Order ${orderId} is refunded: €4.24 back to the buyer.`);
    await closeSnackbar(page);
    await page.waitForSelector(dialog, { hidden: true });
    expect(refunds.posts).to.deep.equal([{ orderId, reason: 'The buyer asked within the day.', overrideWindow: false }]);
    expect(refunds.statuses).to.deep.equal([200]);

    // The row stays, marked Refunded, without its Refund button.
    await page.waitForSelector(`${row}[data-state="5"] [data-testid="admin-order-state"][data-state="5"]`);
    expect(await text(page, `${row} [data-testid="admin-order-state"]`)).to.equal('Refunded');
    expect(await page.$(`${row} [data-testid="admin-order-refund"]`)).to.equal(null);
    const order = await knex()('orders').where({ id: orderId }).first();
    expect(order.state).to.equal(5);
    expect(await knex()('subscriptions').where({ user_id: buyer.id, status: 'active' })).to.have.length(0);

    // The Refunded menu lists it, badge and all.
    await click(page, '[data-testid="admin-menu-orders-refunded"]');
    await page.waitForFunction(() => location.pathname === '/jve/orders/5');
    await page.waitForSelector('[data-testid="admin-orders"][data-state="5"][data-status="loaded"]');
    expect(await text(page, '[data-testid="admin-orders"] h1')).to.equal('Refunded orders');
    await click(page, '[data-testid="admin-orders-size-100"]');
    await page.waitForSelector(`[data-testid="admin-orders-pager"][data-limit="100"]`);
    await page.waitForSelector(`[data-testid="admin-orders"][data-status="loaded"] ${row} [data-testid="admin-order-state"][data-state="5"]`);
    await page.close();

    // The buyer's panel: no active subscription, the order refunded, nothing of the account.
    const buyerPage = await openPage(buyer, ROLE.user);
    await buyerPage.goto(`${baseUrl}/user/${buyer.id}`);
    await buyerPage.waitForSelector('[data-testid="page-user-panel"][data-status="loaded"]');
    expect(await buyerPage.$('[data-testid="panel-active-item"]')).to.equal(null);
    const refunded = `[data-testid="panel-refunded-item"][data-order-id="${orderId}"]`;
    await buyerPage.waitForSelector(refunded);
    expect(await text(buyerPage, `${refunded} [data-testid="panel-refunded-badge"]`)).to.equal('Refunded');
    expect(await text(buyerPage, `${refunded} [data-testid="panel-item-order"]`)).to.equal(String(orderId));
    expect(await buyerPage.$(`${refunded} [data-testid="panel-password-field"], ${refunded} [data-testid="panel-username-field"]`)).to.equal(null);
    const shown = await buyerPage.evaluate(() => document.body.innerText);
    expect(shown).to.not.contain(account.password);
    expect(shown).to.not.contain(account.email);
    await buyerPage.close();
  });

  it('past the window the override must be ticked; it is sent and the refund goes through', async () => {
    const platform = await createPlatform();
    await createAccount(platform.id, 2);
    const buyer = await loginAs('user');
    const orderId = await paidOrder(buyer, platform);
    const paidAt = new Date(harness().clock.now().getTime() - 30 * 3600_000);
    await knex()('orders').where({ id: orderId }).update({ paid_at: paidAt });

    const page = await openPage(admin, ROLE.admin);
    const refunds = recordRefunds(page);
    await openOrder(page, orderId);
    await openRefundDialog(page, orderId);
    expect(await attr(page, '[data-testid="admin-refund-window"]', 'data-inside')).to.equal('false');
    expect(await text(page, '[data-testid="admin-refund-window"]')).to.equal(
      `The window closed on ${await dateTime(page, new Date(paidAt.getTime() + 24 * 3600_000))}: refunding needs an override.`,
    );
    // Unchecked by default; confirming without it is refused by the form, and nothing is sent.
    expect(await attr(page, '[data-testid="admin-refund-override"]', 'data-state')).to.equal('unchecked');
    await typeInto(page, '[data-testid="admin-refund-reason"]', 'Goodwill after the window');
    await click(page, '[data-testid="admin-refund-confirm"]', { inDialog: true });
    await page.waitForSelector('[data-testid="field-error-overrideWindow"]', { visible: true });
    expect(await text(page, '[data-testid="field-error-overrideWindow"]')).to.equal('Tick the override to refund past the window.');
    expect(refunds.posts).to.deep.equal([]);

    await click(page, '[data-testid="admin-refund-override"]', { inDialog: true });
    await page.waitForSelector('[data-testid="admin-refund-override"][data-state="checked"]');
    await click(page, '[data-testid="admin-refund-confirm"]', { inDialog: true });
    await page.waitForSelector(`${orderRow(orderId)}[data-state="5"]`);
    expect(refunds.posts).to.deep.equal([{ orderId, reason: 'Goodwill after the window', overrideWindow: true }]);
    const refund = await knex()('refunds').where({ order_id: orderId }).first();
    expect(refund.override_window).to.equal(true);
    await page.close();
  });

  it("a CoinPal payment: staff send the crypto back themselves, and the transfer's reference is required and sent", async () => {
    const platform = await createPlatform();
    await createAccount(platform.id, 2);
    const buyer = await loginAs('user');
    const orderId = await paidOrder(buyer, platform, 'crypto');

    const page = await openPage(admin, ROLE.admin);
    const refunds = recordRefunds(page);
    await openOrder(page, orderId);
    expect(await text(page, `${orderRow(orderId)} [data-testid="admin-order-payment"]`)).to.equal('Crypto');
    await openRefundDialog(page, orderId);
    expect(await text(page, '[data-testid="admin-refund-provider"]')).to.equal('CoinPal (crypto)');
    expect(await text(page, '[data-testid="admin-refund-manual-note"]')).to.match(
      /^CoinPal has no refund call: send the crypto back to the buyer yourself first/,
    );
    await typeInto(page, '[data-testid="admin-refund-reason"]', 'Wrong platform ordered');
    await click(page, '[data-testid="admin-refund-confirm"]', { inDialog: true });
    await page.waitForSelector('[data-testid="field-error-manualReference"]', { visible: true });
    expect(await text(page, '[data-testid="field-error-manualReference"]')).to.equal('This field is required.');
    expect(refunds.posts).to.deep.equal([]);

    await typeInto(page, '[data-testid="admin-refund-reference"]', 'USDT tx 0xfeed42');
    await click(page, '[data-testid="admin-refund-confirm"]', { inDialog: true });
    await page.waitForSelector(`${orderRow(orderId)}[data-state="5"]`);
    expect(refunds.posts).to.deep.equal([{ orderId, reason: 'Wrong platform ordered', overrideWindow: false, manualReference: 'USDT tx 0xfeed42' }]);
    const refund = await knex()('refunds').where({ order_id: orderId }).first();
    expect(refund).to.include({ manual_reference: 'USDT tx 0xfeed42', status: 'succeeded', provider_refund_id: null });
    await page.close();
  });

  it('when another admin refunded the order first, the dialog shows the refusal in Korean and nothing changes', async () => {
    const platform = await createPlatform();
    await createAccount(platform.id, 2);
    const buyer = await loginAs('user');
    const orderId = await paidOrder(buyer, platform);

    const page = await openPage(admin, ROLE.admin, { language: 'ko' });
    const refunds = recordRefunds(page);
    await openOrder(page, orderId);
    await openRefundDialog(page, orderId);
    expect(await text(page, '[data-testid="admin-refund-provider"]')).to.equal('데모 결제');

    // A second admin is quicker, through the API.
    const other = await loginAs('admin');
    const quick = await fetch(`${baseUrl}${REFUND_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...other.auth },
      body: JSON.stringify({ orderId, reason: 'Refunded by the other admin' }),
    });
    expect(quick.status).to.equal(200);

    await typeInto(page, '[data-testid="admin-refund-reason"]', 'Refund by this admin');
    await click(page, '[data-testid="admin-refund-confirm"]', { inDialog: true });
    // The refusal stays in the dialog, and the quote is asked again: refunded already, so no Confirm any more.
    await page.waitForSelector('[data-testid="admin-refund-dialog"][data-refundable="false"] [data-testid="admin-refund-not-refundable"]');
    expect(refunds.statuses).to.deep.equal([409]);
    expect(await text(page, '[data-testid="admin-refund-error"]')).to.equal(KOREAN_ERRORS.order_not_refundable);
    expect(await attr(page, '[data-testid="admin-refund-not-refundable"]', 'data-reason')).to.equal('order_refunded');
    expect(await page.$('[data-testid="admin-refund-confirm"]')).to.equal(null);
    // Nothing changed on the page: the row is as it was.
    expect(await attr(page, orderRow(orderId), 'data-state')).to.equal('2');
    expect(await knex()('refunds').where({ order_id: orderId })).to.have.length(1);
    await click(page, '[data-testid="admin-refund-cancel"]', { inDialog: true });
    await page.waitForSelector('[data-testid="admin-refund-dialog"]', { hidden: true });
    await page.close();
  });

  it('a moderator sees orders and their state badges but no Refund button, on the list or the user page', async () => {
    const platform = await createPlatform();
    await createAccount(platform.id, 2);
    const buyer = await loginAs('user');
    const orderId = await paidOrder(buyer, platform);

    const page = await openPage(moderator, ROLE.moderator);
    const quotes: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === QUOTE_PATH) quotes.push(request.url());
    });
    await openOrder(page, orderId);
    expect(await text(page, `${orderRow(orderId)} [data-testid="admin-order-state"]`)).to.equal('Completed');
    expect(await page.$('[data-testid="admin-order-refund"]')).to.equal(null);
    await click(page, `${orderRow(orderId)} [data-testid="admin-order-user-link"]`);
    await page.waitForSelector(`[data-testid="admin-user"][data-user-id="${buyer.id}"][data-status="loaded"]`);
    await page.waitForSelector(`[data-testid="admin-active-item"][data-order-id="${orderId}"] [data-testid="admin-item-replace"]`);
    expect(await page.$('[data-testid="admin-item-refund"]')).to.equal(null);
    expect(quotes).to.deep.equal([]);
    await page.close();

    // The same user page as an admin has the button.
    const adminPage = await openPage(admin, ROLE.admin);
    await adminPage.goto(`${baseUrl}/jve/user/${buyer.id}`);
    await adminPage.waitForSelector(`[data-testid="admin-active-item"][data-order-id="${orderId}"] [data-testid="admin-item-refund"]`);
    await adminPage.close();
  });
});
