import { expect } from 'chai';
import type { HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { createUser, loginAs, type TestUser } from '../support/agent.js';
import { CreditService, money } from '@subshare/core';
import { formatMoney } from '@subshare/core/storefront';
import { harness, useWorker } from '../support/harness.js';
import { loggedInPage, openBrowser, PHONE, snackbarShown, type BrowserSession, type LoggedInPageOptions, closeSnackbar } from '../support/browser.js';
import { buyer as newBuyer, createAccount, createOrder, createPlatform, markPaidQuietly, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

const ROLE = { user: 0, moderator: 1, admin: 2 } as const;

/**
 * The admin area in Chromium (spec section 2, "Admin area"): a moderator finds a waiting order,
 * an admin adds capacity through the create-subscription form, the moderator activates the
 * order (it leaves the list), pages through the lists, replaces the buyer's subscription on the
 * user page and sends the buyer an e-mail that arrives at the SMTP server; a buyer gets no
 * admin content.
 */
describe('browser: the admin area', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let moderator: TestUser;
  let admin: TestUser;
  const knex = () => harness().knex;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
    [moderator, admin] = await Promise.all([loginAs('moderator'), loginAs('admin')]);
  });
  after(async () => {
    await browser?.close();
  });

  /** A fresh incognito page, logged in as `user` with `role` (stored as the login page stores it). */
  function openPage(user: TestUser, role: number, options: Pick<LoggedInPageOptions, 'language' | 'viewport'> = {}): Promise<Page> {
    return loggedInPage(browser, baseUrl, user, { role, ...options });
  }

  /** The API calls the page makes (path, query, body, Authorization) and their statuses. */
  function recordApi(page: Page) {
    const calls: Array<{ method: string; path: string; query: Record<string, string>; body: Record<string, unknown>; authorization?: string }> = [];
    const statuses: Array<{ path: string; status: number }> = [];
    page.on('request', (request: HTTPRequest) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api/')) return;
      calls.push({
        method: request.method(),
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: request.method() === 'POST' ? (JSON.parse(request.postData() || '{}') as Record<string, unknown>) : {},
        authorization: request.headers().authorization,
      });
    });
    page.on('response', (response: HTTPResponse) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/api/')) statuses.push({ path: url.pathname, status: response.status() });
    });
    return { calls, statuses, to: (path: string) => calls.filter((call) => call.path === path) };
  }

  const clean = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent).then(clean);
  const texts = (page: Page, selector: string) =>
    page.$$eval(selector, (elements) => elements.map((element) => element.textContent)).then((all) => all.map(clean));
  const attr = (page: Page, selector: string, name: string) => page.$eval(selector, (element, attribute) => element.getAttribute(attribute), name);
  const isDisabled = (page: Page, selector: string) => page.$eval(selector, (element) => (element as HTMLButtonElement).disabled);

  /** Nothing covers the page: the loading overlay and (outside a dialog) a closing dialog's backdrop are gone. */
  async function settled(page: Page, inDialog = false) {
    await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
    if (!inDialog) await page.waitForSelector('[data-scope="dialog"][data-part="backdrop"]', { hidden: true });
  }

  async function click(page: Page, selector: string, options: { inDialog?: boolean } = {}) {
    await settled(page, options.inDialog);
    const element = await page.waitForSelector(selector, { visible: true });
    await element!.click();
  }

  async function typeInto(page: Page, selector: string, value: string) {
    await settled(page);
    const field = await page.waitForSelector(selector, { visible: true });
    await field!.click({ count: 3 });
    await page.keyboard.press('Backspace');
    if (value) await field!.type(value);
  }

  /** A snackbar with exactly this message (it stays 3 s: spec section 8). */
  async function snackbar(page: Page, message: string, tone: 'info' | 'error') {
    await snackbarShown(page, message, tone);
    // Closed at once, so the next message is not confused with this one.
    await closeSnackbar(page);
  }

  const ordersLoaded = (page: Page, state: number) => page.waitForSelector(`[data-testid="admin-orders"][data-state="${state}"][data-status="loaded"]`);
  const usersLoaded = (page: Page) => page.waitForSelector('[data-testid="admin-users"][data-status="loaded"]');
  const pager = (page: Page, prefix: string) =>
    page.$eval(`[data-testid="${prefix}-pager"]`, (element) => ({
      page: Number(element.getAttribute('data-page')),
      pages: Number(element.getAttribute('data-pages')),
      limit: Number(element.getAttribute('data-limit')),
    }));
  const orderRow = (orderId: number) => `[data-testid="admin-order-row"][data-order-id="${orderId}"]`;

  /** A paid order waiting for activation (state 6), paid `hoursAgo` hours ago. */
  async function waitingOrder(platform: TestPlatform, options: { hoursAgo?: number; invitationEmail?: string } = {}) {
    const user = await newBuyer();
    const orderId = await createOrder(user, platform);
    await markPaidQuietly(orderId);
    if (options.hoursAgo)
      await knex()('orders')
        .where({ id: orderId })
        .update({ paid_at: new Date(Date.now() - options.hoursAgo * 3600_000) });
    if (options.invitationEmail) await knex()('order_items').where({ order_id: orderId }).update({ invitation_email: options.invitationEmail });
    return { user, orderId };
  }

  it('from a waiting order to new capacity, activation, the user page, a replacement and an e-mail', async () => {
    // A family-group platform without accounts: its order waits for staff (the worker never
    // activates an invitation order itself, so new capacity does not race the Activate button).
    const platform = await createPlatform({ slotsCount: 2, needsInvitation: true });
    const { user: buyer, orderId } = await waitingOrder(platform, { hoursAgo: 30, invitationEmail: 'family.login@example.test' });

    // The shop owes the buyer credit (issue 37): the dashboard shows what it owes.
    await knex().transaction((trx) =>
      harness()
        .container.get(CreditService)
        .earn(buyer.id, money(150, 'EUR'), { key: `test:admin:${orderId}` }, trx),
    );

    // --- The dashboard: the order has waited more than 24 hours, and links to itself. ---
    const page = await openPage(moderator, ROLE.moderator);
    const api = recordApi(page);
    await page.goto(`${baseUrl}/jve`);
    await page.waitForSelector('[data-testid="admin-home"][data-status="loaded"]');
    expect(await page.title()).to.equal('Dashboard | subshare');
    const dashboard = (await (await fetch(`${baseUrl}/api/admin/dashboard`, { headers: { Authorization: `Bearer ${moderator.token}` } })).json()) as {
      revenueEur: unknown[];
      outstandingCredit: Array<{ amount: number; currencyCode: string }>;
      discountsGranted: Array<{ source: string; code: string | null; paidOrders: number }>;
    };
    const owedEur = dashboard.outstandingCredit.find((entry) => entry.currencyCode === 'EUR')!.amount;
    expect(owedEur).to.be.at.least(1.5);
    expect(await text(page, '[data-testid="admin-outstanding-credit-amounts"]')).to.contain(formatMoney(owedEur, 'EUR'));
    // Discounts granted (issue 37): the welcome discount's line first, then one line per code a paid order carries.
    expect(await page.$$eval('[data-testid="admin-discount-line"]', (lines) => lines.map((line) => line.getAttribute('data-code')))).to.deep.equal(
      dashboard.discountsGranted.map((line) => line.code ?? ''),
    );
    expect(await text(page, '[data-testid="admin-discount-line"][data-source="welcome"]')).to.contain('Welcome discount');
    expect(await text(page, '[data-testid="admin-discount-line"][data-source="welcome"] [data-testid="admin-discount-orders"]')).to.equal(
      `${dashboard.discountsGranted[0].paidOrders} paid orders`,
    );
    expect(Number(await attr(page, '[data-testid="admin-revenue-chart"]', 'data-bars'))).to.equal(dashboard.revenueEur.length);
    expect(await attr(page, '[data-testid="admin-revenue-chart"]', 'role')).to.equal('img');
    expect(await page.$(`[data-testid="admin-state-count"][data-state="6"]`)).to.not.equal(null);
    await click(page, `[data-testid="admin-waiting-order"][data-order-id="${orderId}"] a`);
    await page.waitForFunction((id) => location.pathname === '/jve/orders/6' && location.search === `?search=${id}`, {}, orderId);
    await ordersLoaded(page, 6);
    expect(await page.$$eval('[data-testid="admin-order-row"]', (rows) => rows.map((row) => Number(row.getAttribute('data-order-id'))))).to.deep.equal([
      orderId,
    ]);

    // --- Not Completed: the waiting order in the list, with the spec's columns. ---
    // The searched list on screen is also state 6 and also holds the order: wait for the list's own
    // answer, or the checks below could read the searched page while it is being replaced.
    const listAnswered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/order/getbystate');
    await click(page, '[data-testid="admin-menu-orders-not-completed"]');
    await page.waitForFunction(() => location.pathname === '/jve/orders/6' && location.search === '');
    await listAnswered;
    await page.waitForSelector('[data-testid="admin-orders-search-shown"]', { hidden: true });
    await ordersLoaded(page, 6);
    await page.waitForSelector(orderRow(orderId));
    expect(await texts(page, '[data-testid="admin-orders-table"] thead th')).to.deep.equal([
      '#',
      'Id',
      'Platform',
      'Type',
      'Duration',
      'Total (EUR)',
      'User',
      'Payment',
      'Date',
      'Action',
    ]);
    const row = orderRow(orderId);
    expect(await text(page, `${row} [data-testid="admin-order-platform"]`)).to.equal(platform.name);
    expect(await text(page, `${row} [data-testid="admin-order-total"]`)).to.equal('€4.99');
    expect(await text(page, `${row} [data-testid="admin-order-payment"]`)).to.equal('Crypto');
    expect(await text(page, `${row} [data-testid="admin-order-user-link"]`)).to.equal(buyer.email);
    expect(await page.$eval(`${row} [data-testid="admin-order-user-link"]`, (link) => new URL((link as HTMLAnchorElement).href).pathname)).to.equal(
      `/jve/user/${buyer.id}`,
    );
    // Page 1 of 20 rows (spec section 4), the count as the server counts it.
    const firstLoad = api.to('/api/order/getbystate').at(-1)!;
    expect(firstLoad.query).to.deep.equal({ state: '6', page: '1', limit: '20', languageId: '1' });
    expect(firstLoad.authorization).to.equal(`Bearer ${moderator.token}`);
    const waitingCount = Number((await knex()('orders').where({ state: 6 }).count<Array<{ n: string }>>('id as n'))[0]!.n);
    expect(await text(page, '[data-testid="admin-orders-count"]')).to.equal(`ORDERS COUNT: ${waitingCount}`);

    // Activate without a free slot: the server's reason in an error snackbar; the order stays.
    await click(page, `${row} [data-testid="admin-order-activate"]`);
    await snackbar(page, 'No slot is free on this platform for the whole period; add an account first.', 'error');
    expect(await page.$(row)).to.not.equal(null);

    // The user page before activation: the incomplete item with its invitation e-mail.
    await click(page, `${row} [data-testid="admin-order-user-link"]`);
    await page.waitForSelector(`[data-testid="admin-user"][data-user-id="${buyer.id}"][data-status="loaded"]`);
    expect(api.to('/api/user/getuserpanel').at(-1)!.query).to.deep.equal({ id: String(buyer.id), languageId: '1' });
    expect(await text(page, '[data-testid="admin-user-email"]')).to.equal(buyer.email);
    expect(await text(page, '[data-testid="admin-user-nickname"]')).to.equal('Test User');
    expect(await texts(page, '[data-testid="admin-user"] h2')).to.deep.equal(['SUBSCRIPTIONS']);
    const incomplete = `[data-testid="admin-incomplete-item"][data-order-id="${orderId}"]`;
    expect(await text(page, `${incomplete} [data-testid="admin-item-order"]`)).to.equal(String(orderId));
    expect(await text(page, `${incomplete} [data-testid="admin-item-invitation"]`)).to.equal('family.login@example.test');
    expect(await text(page, `${incomplete} [data-testid="admin-item-paid-not-completed"]`)).to.equal('PAID, BUT NOT COMPLETED!');
    expect(await text(page, '[data-testid="admin-user-active-empty"]')).to.equal('No active subscription.');

    // A moderator sees the mailboxes page without the admin-only controls.
    await click(page, '[data-testid="admin-menu-create-subscription"]');
    await page.waitForSelector('[data-testid="admin-create-subscription"][data-platforms="loaded"]');
    expect(await page.$('[data-testid="admin-create-admin-only"]')).to.not.equal(null);
    await page.select('[data-testid="admin-create-platform"]', String(platform.id));
    await page.waitForSelector(`[data-testid="admin-mailboxes"][data-platform-id="${platform.id}"]:not([data-status="loading"])`);
    expect(await page.$('[data-testid="admin-mailbox-create"]')).to.equal(null);
    expect(await isDisabled(page, '[data-testid="admin-create-submit"]')).to.equal(true);

    // --- An admin adds capacity through the create-subscription form. ---
    const adminPage = await openPage(admin, ROLE.admin);
    const adminApi = recordApi(adminPage);
    await adminPage.goto(`${baseUrl}/jve/createsubscriber`);
    await adminPage.waitForSelector('[data-testid="admin-create-subscription"][data-platforms="loaded"]');
    expect(await text(adminPage, '[data-testid="admin-mailboxes-hint"]')).to.equal('Choose a platform to see its mailboxes.');
    // Choosing the platform fills the slots from it and lists its mailboxes (the spec's spelling).
    await adminPage.select('[data-testid="admin-create-platform"]', String(platform.id));
    await adminPage.waitForSelector(`[data-testid="admin-mailboxes"][data-platform-id="${platform.id}"][data-status="loaded"]`);
    expect(await adminPage.$eval('[data-testid="admin-create-slots"]', (input) => (input as HTMLInputElement).value)).to.equal('2');
    expect(adminApi.to('/api/subscribe/getbemails').at(-1)!.query).to.deep.equal({ plaformId: String(platform.id) });
    const before = Number(await attr(adminPage, '[data-testid="admin-mailboxes"]', 'data-count'));

    // A new mailbox: listed first with its e-mail and password, and stored for the platform.
    await click(adminPage, '[data-testid="admin-mailbox-create"]');
    await adminPage.waitForFunction(
      (count) => Number(document.querySelector('[data-testid="admin-mailboxes"]')?.getAttribute('data-count')) === count + 1,
      {},
      before,
    );
    const mailbox = await adminPage.$eval('[data-testid="admin-mailbox"]', (element) => ({
      id: Number(element.getAttribute('data-mailbox-id')),
      email: element.querySelector('[data-testid="admin-mailbox-email"]')!.textContent!,
      password: element.querySelector('[data-testid="admin-mailbox-password"]')!.textContent!,
    }));
    expect(mailbox.email).to.match(/@mail\.localhost$/);
    expect(mailbox.password).to.have.length.of.at.least(20);
    expect((await knex()('mailboxes').where({ id: mailbox.id }).first()).platform_id).to.equal(platform.id);
    // Its address as the account's login e-mail.
    await click(adminPage, '[data-testid="admin-mailbox"] [data-testid="admin-mailbox-use"]');
    await adminPage.waitForFunction(
      (email) => (document.querySelector('[data-testid="admin-create-email"]') as HTMLInputElement).value === email,
      {},
      mailbox.email,
    );

    // Spec section 5: password 6 to 18, slots 1 to 20, a valid forwarding e-mail; nothing is sent until all hold.
    await typeInto(adminPage, '[data-testid="admin-create-password"]', '12345');
    await typeInto(adminPage, '[data-testid="admin-create-slots"]', '21');
    await typeInto(adminPage, '[data-testid="admin-create-femail"]', 'not-an-email');
    await click(adminPage, '[data-testid="admin-create-submit"]');
    await adminPage.waitForSelector('[data-testid="field-error-femail"]', { visible: true });
    expect(await text(adminPage, '[data-testid="field-error-password"]')).to.equal('Use at least 6 characters.');
    expect(await text(adminPage, '[data-testid="field-error-slotsCount"]')).to.equal('Enter a number from 1 to 20.');
    expect(await text(adminPage, '[data-testid="field-error-femail"]')).to.equal('Enter a valid e-mail address.');
    await typeInto(adminPage, '[data-testid="admin-create-password"]', 'x'.repeat(19));
    await adminPage.waitForFunction(() => document.querySelector('[data-testid="field-error-password"]')?.textContent === 'Use at most 18 characters.');
    expect(adminApi.to('/api/subscribe/insert')).to.deep.equal([]);

    await typeInto(adminPage, '[data-testid="admin-create-password"]', 'family-pass-1');
    await typeInto(adminPage, '[data-testid="admin-create-slots"]', '2');
    await typeInto(adminPage, '[data-testid="admin-create-femail"]', 'Forward.Box@Example.test');
    await click(adminPage, '[data-testid="admin-create-submit"]');
    await snackbar(adminPage, 'Subscribe is created!!!', 'info');
    expect(adminApi.to('/api/subscribe/insert').map((call) => call.body)).to.deep.equal([
      { platformId: platform.id, email: mailbox.email, password: 'family-pass-1', slotsCount: 2, femail: 'forward.box@example.test' },
    ]);
    const account = await knex()('platform_accounts').where({ platform_id: platform.id }).first();
    expect(account).to.include({ login_email: mailbox.email, slots_count: 2, mailbox_id: mailbox.id });
    // The form starts afresh.
    await adminPage.waitForSelector('[data-testid="admin-mailboxes-hint"]');
    const values = await adminPage.$$eval('[data-testid="admin-create-form"] input, [data-testid="admin-create-form"] select', (fields) =>
      fields.map((field) => (field as HTMLInputElement).value),
    );
    expect(values).to.deep.equal(['', '', '', '', '']);
    // The same login again is refused: the server's message in the snackbar.
    await adminPage.select('[data-testid="admin-create-platform"]', String(platform.id));
    await typeInto(adminPage, '[data-testid="admin-create-email"]', mailbox.email);
    await typeInto(adminPage, '[data-testid="admin-create-password"]', 'family-pass-2');
    await typeInto(adminPage, '[data-testid="admin-create-femail"]', 'forward.box@example.test');
    await click(adminPage, '[data-testid="admin-create-submit"]');
    await snackbar(adminPage, 'This platform already has an account with this login e-mail.', 'error');
    await adminPage.close();

    // --- The moderator activates the order: it leaves the list. ---
    await click(page, '[data-testid="admin-menu-orders-not-completed"]');
    await ordersLoaded(page, 6);
    await page.waitForSelector(row);
    const countBefore = await text(page, '[data-testid="admin-orders-count"]');
    await click(page, `${row} [data-testid="admin-order-activate"]`);
    await page.waitForSelector(row, { hidden: true });
    await snackbar(page, `Order ${orderId} is activated.`, 'info');
    expect(await text(page, '[data-testid="admin-orders-count"]')).to.equal(`ORDERS COUNT: ${Number(countBefore.split(': ')[1]) - 1}`);
    expect(api.to('/api/webhook/activatesubscribe').map((call) => call.body)).to.deep.equal([{ orderId }, { orderId }]);
    expect((await knex()('orders').where({ id: orderId }).first()).state).to.equal(2);

    // Completed: found by its id; the user link opens the user page.
    await click(page, '[data-testid="admin-menu-orders-completed"]');
    await ordersLoaded(page, 2);
    await typeInto(page, '[data-testid="admin-orders-search-input"]', String(orderId));
    await click(page, '[data-testid="admin-orders-search-submit"]');
    await page.waitForSelector(`[data-testid="admin-orders"][data-search="${orderId}"][data-status="loaded"] ${row}`);
    expect(await page.$(`${row} [data-testid="admin-order-activate"]`)).to.equal(null);
    await click(page, `${row} [data-testid="admin-order-user-link"]`);
    await page.waitForSelector(`[data-testid="admin-user"][data-user-id="${buyer.id}"][data-status="loaded"]`);

    // --- The user page: the active subscription, then replaced onto another account. ---
    const first = await knex()('subscriptions').where({ user_id: buyer.id, status: 'active' }).first();
    const active = `[data-testid="admin-active-item"][data-subscription-id="${first.id}"]`;
    await page.waitForSelector(active);
    expect(await text(page, `${active} [data-testid="admin-item-subscription"]`)).to.equal(String(first.id));
    expect(await text(page, `${active} [data-testid="admin-item-order"]`)).to.equal(String(orderId));
    // A family invitation: the username is the invitation e-mail, and no password is shown.
    expect(await text(page, `${active} [data-testid="admin-item-username"]`)).to.equal('family.login@example.test');
    expect(await page.$(`${active} [data-testid="admin-item-password"]`)).to.equal(null);
    expect(await text(page, `${active} [data-testid="admin-item-slot"]`)).to.equal(String(first.slot));
    const endDate = await page.evaluate(
      (iso: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(iso)),
      (first.ends_at as Date).toISOString(),
    );
    expect(await text(page, `${active} [data-testid="admin-item-end"]`)).to.equal(endDate);
    expect(await text(page, `${active} [data-testid="admin-item-replaced-from"]`)).to.equal('—');
    expect(await page.$('[data-testid="admin-incomplete-item"]')).to.equal(null);

    await createAccount(platform.id, 2);
    // Replace asks first (issue 35): Cancel sends nothing; "Yes, replace" moves the subscription.
    await click(page, `${active} [data-testid="admin-item-replace"]`);
    const confirm = `${active} [data-testid="admin-item-replace-confirm"]`;
    await page.waitForSelector(confirm, { visible: true });
    expect(await text(page, `${confirm} p`)).to.equal(
      `Replace subscription #${first.id}? It moves to a free slot of another account, with the same end date: the buyer's login details change.`,
    );
    await click(page, `${confirm} [data-testid="admin-item-replace-cancel"]`);
    await page.waitForSelector(confirm, { hidden: true });
    expect(api.to('/api/webhook/replacesubscribe')).to.deep.equal([]);
    await click(page, `${active} [data-testid="admin-item-replace"]`);
    await click(page, `${confirm} [data-testid="admin-item-replace-yes"]`);
    await snackbar(page, 'Subscribe is replaced!', 'info');
    const replacement = await waitFor(() => knex()('subscriptions').where({ user_id: buyer.id, status: 'active' }).whereNot({ id: first.id }).first(), {
      what: 'the new subscription',
    });
    // The panel reloads: the new subscription, replaced from the first.
    const moved = `[data-testid="admin-active-item"][data-subscription-id="${replacement.id}"]`;
    await page.waitForSelector(moved);
    expect(await text(page, `${moved} [data-testid="admin-item-replaced-from"]`)).to.equal(String(first.id));
    expect(await page.$(active)).to.equal(null);
    expect(api.to('/api/webhook/replacesubscribe').map((call) => call.body)).to.deep.equal([{ subscribeId: first.id, orderId }]);

    // --- Users: search by e-mail (only a valid one is sent), then SEND EMAIL. ---
    await click(page, '[data-testid="admin-menu-users"]');
    await usersLoaded(page);
    const userCount = Number((await knex()('users').count<Array<{ n: string }>>('id as n'))[0]!.n);
    expect(await text(page, '[data-testid="admin-users-count"]')).to.equal(`USERS COUNT: ${userCount}`);
    expect(await texts(page, '[data-testid="admin-users-table"] thead th')).to.deep.equal([
      '#',
      'Id',
      'Name',
      'E-mail',
      'Subscriptions',
      'Role',
      'Date',
      'Action',
    ]);
    await typeInto(page, '[data-testid="admin-users-search-input"]', 'not-an-email');
    await click(page, '[data-testid="admin-users-search-submit"]');
    await page.waitForSelector('[data-testid="field-error-query"]', { visible: true });
    expect(await text(page, '[data-testid="field-error-query"]')).to.equal('Enter a valid e-mail address.');
    expect(api.to('/api/user/getusersbyemail')).to.deep.equal([]);
    await typeInto(page, '[data-testid="admin-users-search-input"]', buyer.email);
    await click(page, '[data-testid="admin-users-search-submit"]');
    const userRow = `[data-testid="admin-user-row"][data-user-id="${buyer.id}"]`;
    await page.waitForSelector(`[data-testid="admin-users"][data-status="loaded"][data-search="${buyer.email}"] ${userRow}`);
    expect(await page.$$('[data-testid="admin-user-row"]')).to.have.length(1);
    const [listed] = (await (
      await fetch(`${baseUrl}/api/user/getusersbyemail?email=${encodeURIComponent(buyer.email)}`, { headers: { Authorization: `Bearer ${moderator.token}` } })
    ).json()) as Array<{ subscribersCount: number }>;
    expect(await text(page, `${userRow} [data-testid="admin-user-subscriptions"]`)).to.equal(String(listed!.subscribersCount));
    expect(await text(page, `${userRow} [data-testid="admin-user-role"]`)).to.equal('User');
    expect(await page.$eval(`${userRow} [data-testid="admin-user-link"]`, (link) => new URL((link as HTMLAnchorElement).href).pathname)).to.equal(
      `/jve/user/${buyer.id}`,
    );

    await click(page, `${userRow} [data-testid="admin-user-send-email"]`);
    await page.waitForSelector('[data-testid="admin-send-email-dialog"]', { visible: true });
    const kinds = await texts(page, '[data-testid="admin-send-email-kind"] option');
    expect(kinds).to.have.length(11);
    expect(kinds[10]).to.equal('10 — Order refunded');
    expect(kinds[4]).to.equal('4 — Trustpilot invitation');
    await page.select('[data-testid="admin-send-email-kind"]', '4');
    await click(page, '[data-testid="admin-send-email-submit"]', { inDialog: true });
    await snackbar(page, 'E-mail send successfully!', 'info');
    expect(api.to('/api/email/sendemail').map((call) => call.body)).to.deep.equal([{ userId: buyer.id, emailType: 4 }]);
    const mail = await harness().mailTo(buyer.email, (message) => message.subject === 'How was your experience with subshare?');
    expect(mail.to).to.deep.equal([buyer.email]);

    // A kind the user has nothing for: the server's reason in an error snackbar.
    await click(page, `${userRow} [data-testid="admin-user-send-email"]`);
    await page.waitForSelector('[data-testid="admin-send-email-dialog"]', { visible: true });
    await page.select('[data-testid="admin-send-email-kind"]', '5');
    await click(page, '[data-testid="admin-send-email-submit"]', { inDialog: true });
    await page.waitForSelector('[data-testid="snackbar"][data-tone="error"]');
    expect(await text(page, '[data-testid="snackbar-message"]')).to.not.equal('');
    expect(api.statuses.filter((entry) => entry.path === '/api/email/sendemail').map((entry) => entry.status)).to.deep.equal([200, 409]);
    await page.close();
  });

  it('paging of the orders: Previous and Next by the page count, sizes 10/20/50/100 back to page 1, search and Refresh, CSV with the token', async () => {
    const platform = await createPlatform({ slotsCount: 1 });
    // At least eleven waiting orders, so that 10 a page makes two pages or more.
    const orders: number[] = [];
    for (let index = 0; index < 11; index += 1) orders.push((await waitingOrder(platform)).orderId);

    const page = await openPage(moderator, ROLE.moderator);
    const api = recordApi(page);
    await page.goto(`${baseUrl}/jve/orders/6`);
    await ordersLoaded(page, 6);
    expect(await pager(page, 'admin-orders')).to.include({ page: 1, limit: 20 });
    expect(await isDisabled(page, '[data-testid="admin-orders-previous"]')).to.equal(true);
    expect(await attr(page, '[data-testid="admin-orders-size-20"]', 'aria-pressed')).to.equal('true');
    // Newest first: the last order made heads the list, numbered 1.
    expect(await attr(page, '[data-testid="admin-order-row"]', 'data-order-id')).to.equal(String(orders.at(-1)));
    expect(await text(page, '[data-testid="admin-order-number"]')).to.equal('1');

    // 10 a page: page 1 again, two pages or more, Next enabled.
    await click(page, '[data-testid="admin-orders-size-10"]');
    await page.waitForSelector('[data-testid="admin-orders-pager"][data-limit="10"]');
    await ordersLoaded(page, 6);
    const tens = await pager(page, 'admin-orders');
    expect(tens.page).to.equal(1);
    expect(tens.pages).to.be.at.least(2);
    expect(await page.$$('[data-testid="admin-order-row"]')).to.have.length(10);
    expect(await isDisabled(page, '[data-testid="admin-orders-next"]')).to.equal(false);
    expect(api.to('/api/order/getorderspages').at(-1)!.query).to.deep.equal({ state: '6', limit: '10' });

    // Next: page 2, numbered from 11, Previous enabled.
    await click(page, '[data-testid="admin-orders-next"]');
    await page.waitForSelector('[data-testid="admin-orders-pager"][data-page="2"]');
    await ordersLoaded(page, 6);
    expect(api.to('/api/order/getbystate').at(-1)!.query).to.deep.equal({ state: '6', page: '2', limit: '10', languageId: '1' });
    expect(await text(page, '[data-testid="admin-order-number"]')).to.equal('11');
    expect(await isDisabled(page, '[data-testid="admin-orders-previous"]')).to.equal(false);
    // To the last page: Next disabled there.
    for (let current = 2; current < tens.pages; current += 1) {
      await click(page, '[data-testid="admin-orders-next"]');
      await page.waitForSelector(`[data-testid="admin-orders-pager"][data-page="${current + 1}"]`);
      await ordersLoaded(page, 6);
    }
    expect(await isDisabled(page, '[data-testid="admin-orders-next"]')).to.equal(true);

    // Another size: back to page 1.
    await click(page, '[data-testid="admin-orders-size-50"]');
    await page.waitForSelector('[data-testid="admin-orders-pager"][data-limit="50"][data-page="1"]');
    await ordersLoaded(page, 6);
    expect(api.to('/api/order/getbystate').at(-1)!.query).to.deep.equal({ state: '6', page: '1', limit: '50', languageId: '1' });
    expect(await isDisabled(page, '[data-testid="admin-orders-previous"]')).to.equal(true);

    // Search: required, a number; one order, or NO ORDERS; Refresh brings the list back.
    await click(page, '[data-testid="admin-orders-search-submit"]');
    await page.waitForSelector('[data-testid="field-error-query"]', { visible: true });
    expect(await text(page, '[data-testid="field-error-query"]')).to.equal('This field is required.');
    await typeInto(page, '[data-testid="admin-orders-search-input"]', 'abc');
    await page.waitForFunction(() => document.querySelector('[data-testid="field-error-query"]')?.textContent === 'Enter an order number.');
    expect(api.to('/api/order/getorder')).to.deep.equal([]);
    await typeInto(page, '[data-testid="admin-orders-search-input"]', String(orders[3]));
    await click(page, '[data-testid="admin-orders-search-submit"]');
    await page.waitForSelector(`[data-testid="admin-orders"][data-search="${orders[3]}"][data-status="loaded"]`);
    expect(await page.$$eval('[data-testid="admin-order-row"]', (rows) => rows.map((row) => Number(row.getAttribute('data-order-id'))))).to.deep.equal([
      orders[3],
    ]);
    await typeInto(page, '[data-testid="admin-orders-search-input"]', '999999999');
    await click(page, '[data-testid="admin-orders-search-submit"]');
    await page.waitForSelector('[data-testid="admin-orders"][data-search="999999999"][data-status="loaded"] [data-testid="admin-orders-table-empty"]');
    expect(await text(page, '[data-testid="admin-orders-table-empty"]')).to.equal('NO ORDERS');
    await click(page, '[data-testid="admin-orders-refresh"]');
    await page.waitForSelector('[data-testid="admin-orders"][data-status="loaded"]:not([data-search])');
    expect(await page.$$('[data-testid="admin-order-row"]')).to.have.length.of.at.least(11);

    // The CSV export: fetched with the token, not a plain link.
    await click(page, '[data-testid="admin-orders-export"]');
    await waitFor(() => api.statuses.find((entry) => entry.path === '/api/order/export.csv'), { what: 'the CSV export' });
    const exported = api.to('/api/order/export.csv');
    expect(exported.map((call) => [call.query, call.authorization])).to.deep.equal([[{ state: '6' }, `Bearer ${moderator.token}`]]);
    expect(api.statuses.find((entry) => entry.path === '/api/order/export.csv')!.status).to.equal(200);
    expect(await page.$('[data-testid="snackbar"][data-tone="error"]')).to.equal(null);
    await page.close();
  });

  it('users paging with the page-size selector; the menus on a phone; Korean labels', async () => {
    // Enough users for two pages of 10 whatever else the run has made.
    await Promise.all(Array.from({ length: 11 }, () => createUser()));
    const page = await openPage(moderator, ROLE.moderator, { viewport: PHONE });
    const api = recordApi(page);
    await page.goto(`${baseUrl}/jve/users`);
    await usersLoaded(page);
    expect(await page.$eval('[data-testid="admin-users-size"]', (select) => (select as HTMLSelectElement).value)).to.equal('20');
    expect(await texts(page, '[data-testid="admin-users-size"] option')).to.deep.equal(['10', '20', '50', '100']);
    await page.select('[data-testid="admin-users-size"]', '10');
    await page.waitForSelector('[data-testid="admin-users-pager"][data-limit="10"][data-page="1"]');
    await usersLoaded(page);
    expect(api.to('/api/user/getusers').at(-1)!.query).to.deep.equal({ page: '1', limit: '10' });
    expect(api.to('/api/user/getuserspages').at(-1)!.query).to.deep.equal({ limit: '10' });
    await click(page, '[data-testid="admin-users-next"]');
    await page.waitForSelector('[data-testid="admin-users-pager"][data-page="2"]');
    await usersLoaded(page);
    expect(await text(page, '[data-testid="admin-user-number"]')).to.equal('11');
    await click(page, '[data-testid="admin-users-previous"]');
    await page.waitForSelector('[data-testid="admin-users-pager"][data-page="1"]');
    await usersLoaded(page);
    expect(await isDisabled(page, '[data-testid="admin-users-previous"]')).to.equal(true);
    // A phone: the page fits the screen; the menu opens from its button and closes once a page is chosen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).to.equal(true);
    expect(await page.$('[data-testid="admin-menu-orders-completed"]')).to.equal(null);
    await click(page, '[data-testid="admin-menu-toggle"]');
    await click(page, '[data-testid="admin-menu-orders-completed"]');
    await page.waitForFunction(() => location.pathname === '/jve/orders/2');
    await ordersLoaded(page, 2);
    expect(await page.$('[data-testid="admin-menu-orders-completed"]')).to.equal(null);
    await page.close();

    // The language toggle does not break the admin area: Korean labels.
    const korean = await openPage(moderator, ROLE.moderator, { language: 'ko' });
    await korean.goto(`${baseUrl}/jve/orders/6`);
    await ordersLoaded(korean, 6);
    expect(await texts(korean, '[data-testid="admin-orders"] h1')).to.deep.equal(['미완료 주문 (구독 없음)']);
    expect(await text(korean, '[data-testid="admin-menu-orders-not-completed"]')).to.equal('미완료 (구독 없음)');
    await korean.close();
  });

  it('a buyer opening /jve is sent home and gets no admin content, nor its code', async () => {
    const buyer = await loginAs('user');
    const page = await openPage(buyer, ROLE.user);
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    const api = recordApi(page);
    await page.goto(`${baseUrl}/jve/orders/6`);
    await page.waitForFunction(() => location.pathname === '/');
    await page.waitForSelector('[data-testid="page-home"]');
    expect(await page.$('[data-testid="page-admin"]')).to.equal(null);
    expect(scripts.some((url) => /AdminArea/.test(url))).to.equal(false);
    expect(api.calls.filter((call) => call.path.startsWith('/api/order/') || call.path.startsWith('/api/admin/'))).to.deep.equal([]);
    // The requested address is kept as the return URL (spec section 2).
    expect(await page.evaluate(() => sessionStorage.getItem('subshare.returnUrl'))).to.equal('/jve/orders/6');
    await page.close();
  });
});
