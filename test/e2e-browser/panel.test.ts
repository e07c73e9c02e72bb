import { expect } from 'chai';
import type { HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { CatalogService } from '@subshare/core';
import { listen } from '@subshare/http';
import { createUser, loginAs, type TestUser } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { onFreePort } from '../support/ports.js';
import { loggedInPage, openBrowser, PHONE, type BrowserSession, type LoggedInPageOptions } from '../support/browser.js';
import { activation, createAccount, createPlatform as createTestPlatform, markPaidQuietly, refreshCatalog } from '../support/shop.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

const PANEL_PATH = '/api/user/getuserpanel';
const INVITATION_PATH = '/api/order/setinvatiotaionemail';

/**
 * The buyer's panel in Chromium (spec section 2, "Customer panel"): from payment through the
 * demo provider to the active subscription with its credentials and profile number, the
 * family-invitation form, and another buyer's panel refused.
 */
describe('browser: the buyer panel', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let server: { close(): Promise<void> } | undefined;
  let catalog: CatalogService;
  const knex = () => harness().knex;

  /** A platform of the test's own; the test server's catalog (cached per app) is told too. */
  async function createPlatform(options: Parameters<typeof createTestPlatform>[0]) {
    const platform = await createTestPlatform(options);
    catalog.invalidate();
    return platform;
  }

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    // The demo checkout URL is built from PUBLIC_URL: a server of its own whose public URL is its address.
    const started = await onFreePort(async (port) => {
      const { app, container } = harness().appWith({ PUBLIC_URL: `http://127.0.0.1:${port}` });
      catalog = container.get(CatalogService);
      return listen(app, port, '127.0.0.1');
    });
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A fresh incognito page in a language; logged in as `user` when given (stored as the login page stores it). */
  function openPage(options: { user?: TestUser } & Pick<LoggedInPageOptions, 'language' | 'viewport'> = {}): Promise<Page> {
    const { user, ...rest } = options;
    return loggedInPage(browser, baseUrl, user, rest);
  }

  /** Records the API calls the page makes (path, query, JSON body) and the statuses answered. */
  function recordApi(page: Page) {
    const calls: Array<{ method: string; path: string; query: Record<string, string>; body: Record<string, unknown> }> = [];
    const statuses: Array<{ path: string; status: number }> = [];
    page.on('request', (request: HTTPRequest) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api/')) return;
      calls.push({
        method: request.method(),
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: request.method() === 'POST' ? (JSON.parse(request.postData() || '{}') as Record<string, unknown>) : {},
      });
    });
    page.on('response', (response: HTTPResponse) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/api/')) statuses.push({ path: url.pathname, status: response.status() });
    });
    return { calls, statuses };
  }

  const clean = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent).then(clean);
  const texts = (page: Page, selector: string) =>
    page.$$eval(selector, (elements) => elements.map((element) => element.textContent)).then((all) => all.map(clean));
  const within = (scope: string, testId: string) => `${scope} [data-testid="${testId}"]`;

  async function typeInto(page: Page, selector: string, value: string) {
    const field = await page.waitForSelector(selector, { visible: true });
    await field!.click({ count: 3 });
    await page.keyboard.press('Backspace');
    await field!.type(value);
  }

  /** Pays an order through the demo provider's checkout page, as the API test does: the verified path of a real provider. */
  async function payWithDemo(buyer: TestUser, orderId: number): Promise<void> {
    const session = await fetch(`${baseUrl}/api/payment/createcheckoutsessioncoinpal`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...buyer.auth },
      body: JSON.stringify({ orderId }),
    });
    expect(session.status).to.equal(200);
    const { url } = (await session.json()) as { url: string };
    const token = decodeURIComponent(new URL(url).pathname.split('/').pop()!);
    const paid = await fetch(`${baseUrl}/api/webhook/demo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, outcome: 'paid' }),
      redirect: 'manual',
    });
    expect(paid.status).to.equal(303);
  }

  async function orderByApi(buyer: TestUser, platform: { id: number; typeId: number; durationId: number }): Promise<number> {
    const response = await fetch(`${baseUrl}/api/order/insert`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...buyer.auth },
      body: JSON.stringify({
        platformId: platform.id,
        typeId: platform.typeId,
        durationId: platform.durationId,
        quantity: 1,
        userId: buyer.id,
        languageId: 1,
        currency: 'EUR',
      }),
    });
    expect(response.status).to.equal(200);
    return ((await response.json()) as { id: number }).id;
  }

  const loadedPanel = (page: Page) => page.waitForSelector('[data-testid="page-user-panel"][data-status="loaded"]');

  it('a buyer signs in, pays through the demo provider, and the panel shows the login e-mail, password and profile number', async () => {
    const platform = await createPlatform({ slotsCount: 4, category: 1 });
    // A logo the server has, so the item's image really loads.
    platform.logoBase = '/media/platforms/echora.svg';
    await knex()('platforms').where({ id: platform.id }).update({ logo_base: platform.logoBase });
    refreshCatalog();
    catalog.invalidate();
    const account = await createAccount(platform.id, 4);
    const buyer = await createUser();
    const page = await openPage();
    const { calls } = recordApi(page);

    // Signs in on the way to paying: the login page remembers where the buyer was going.
    await page.goto(`${baseUrl}/platform/${platform.id}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector(`[data-testid="page-platform"][data-status="loaded"][data-platform-id="${platform.id}"]`);
    await page.click('[data-testid="platform-go-to-payment"]');
    await page.waitForFunction(() => location.pathname === '/login');
    await page.waitForSelector('[data-testid="login-step"][data-step="check"]', { visible: true });
    await typeInto(page, '[data-testid="login-email"]', buyer.email);
    await page.click('[data-testid="login-continue"]');
    await page.waitForSelector('[data-testid="login-step"][data-step="login"]', { visible: true });
    await typeInto(page, '[data-testid="login-password"]', buyer.password);
    await page.click('[data-testid="login-submit"]');
    await page.waitForFunction(() => location.pathname === '/payment');
    const ready = await page.waitForSelector('[data-testid="page-payment"][data-status="ready"]');
    const orderId = Number(await ready!.evaluate((element) => element.getAttribute('data-order-id')));

    // Pay now → the demo provider's page → Pay → 'Payment Successful'.
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="payment-pay"]')]);
    expect(new URL(page.url()).pathname).to.match(/^\/demo-checkout\//);
    await page.waitForSelector('[data-testid="demo-banner"]');
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('[data-testid="demo-pay"]')]);
    await page.waitForSelector('[data-testid="payment-result"][data-success="true"]');
    expect(await text(page, '[data-testid="payment-result-title"]')).to.equal('Payment Successful');

    // The worker activates the paid order at once (a free slot exists) and the buyer is told by e-mail.
    await waitFor(async () => (await knex()('orders').where({ id: orderId }).first()).state === 2, { what: 'the activation', timeoutMs: 20_000 });
    await harness().mailTo(buyer.email, (mail) => mail.subject.includes(`#${orderId}`));
    const subscription = await knex()('subscriptions').where({ user_id: buyer.id }).first();
    expect(subscription.slot).to.be.greaterThan(0);

    await page.click('[data-testid="payment-result-subscriptions"]');
    await page.waitForFunction((id) => location.pathname === `/user/${id}`, {}, buyer.id);
    await loadedPanel(page);
    expect(calls.filter((call) => call.path === PANEL_PATH).map((call) => call.query)).to.deep.equal([{ id: String(buyer.id), languageId: '1' }]);
    expect(await page.title()).to.equal('My subscriptions | subshare');

    // Headings: the page's h1, the profile, the Subscriptions heading and its two lists, one heading per item, then Invite friends.
    expect(await texts(page, '[data-testid="page-user-panel"] h1')).to.deep.equal(['My subscriptions']);
    expect(await texts(page, '[data-testid="page-user-panel"] h2')).to.deep.equal(['Profile', 'Subscriptions', 'Invite friends']);
    expect(await texts(page, '[data-testid="page-user-panel"] h3')).to.deep.equal(['Waiting for activation (0)', 'Active subscriptions (1)']);
    expect(await texts(page, '[data-testid="page-user-panel"] h4')).to.deep.equal([platform.name]);

    // Profile: the default picture (no photo), nickname, e-mail.
    expect(await page.$eval('[data-testid="panel-photo"]', (element) => element.getAttribute('data-default'))).to.equal('true');
    expect(await page.$eval('[data-testid="panel-photo"] svg', (element) => element.getAttribute('aria-label'))).to.equal('Profile picture of Test User');
    expect(await text(page, '[data-testid="panel-name"]')).to.equal('Test User');
    expect(await text(page, '[data-testid="panel-nickname"]')).to.equal('Test User');
    expect(await text(page, '[data-testid="panel-email"]')).to.equal(buyer.email);

    // Nothing waits; the active subscription shows what the buyer needs to log in.
    expect(await text(page, '[data-testid="panel-incomplete-empty"]')).to.equal('No paid orders are waiting for activation.');
    const item = `[data-testid="panel-active-item"][data-order-id="${orderId}"]`;
    await page.waitForSelector(item);
    expect(await page.$$('[data-testid="panel-active-item"]')).to.have.length(1);
    expect(
      await page.$eval(within(item, 'panel-item-image'), (image) => [new URL((image as HTMLImageElement).src).pathname, image.getAttribute('alt')]),
    ).to.deep.equal([platform.logoBase, `${platform.name} logo`]);
    expect(await text(page, within(item, 'panel-item-order'))).to.equal(String(orderId));
    expect(await text(page, within(item, 'panel-username'))).to.equal(account.email);
    // The password is hidden until the buyer shows it.
    expect(await text(page, within(item, 'panel-password'))).to.not.contain(account.password);
    await page.click(within(item, 'panel-password-toggle'));
    await page.waitForSelector(`${within(item, 'panel-password')}[data-shown="true"]`);
    expect(await text(page, within(item, 'panel-password'))).to.equal(account.password);
    expect(await page.$eval(within(item, 'panel-password-toggle'), (button) => button.getAttribute('aria-pressed'))).to.equal('true');
    // Four slots: the profile number to use.
    expect(await text(page, within(item, 'panel-slot'))).to.equal(`Use profile number ${subscription.slot}`);
    // Start and end: the subscription's own times, written in the language's format.
    const times = await page.$$eval(`${item} time`, (elements) => elements.map((element) => [element.getAttribute('datetime'), element.textContent]));
    const expected = [subscription.starts_at, subscription.ends_at].map((date: Date) => date.toISOString());
    expect(times.map(([iso]) => iso)).to.deep.equal(expected);
    const formatted = await page.evaluate(
      (isos: string[]) => isos.map((iso) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))),
      expected,
    );
    expect(times.map(([, shown]) => shown)).to.deep.equal(formatted);
    expect(await text(page, within(item, 'panel-subscription-id'))).to.equal(String(subscription.id));
    expect(await page.$eval(within(item, 'panel-renew'), (link) => new URL((link as HTMLAnchorElement).href).pathname)).to.equal(`/platform/${platform.id}`);
    // Only logged on failure: no snackbar on a good load either.
    expect(await page.$('[data-testid="snackbar"]')).to.equal(null);

    // In Korean: asked again in language 2, the platform's Korean name, Korean labels and dates.
    await page.evaluate(() => localStorage.setItem('subshare.languageId', '2'));
    await page.reload();
    await loadedPanel(page);
    expect(calls.filter((call) => call.path === PANEL_PATH).at(-1)!.query).to.deep.equal({ id: String(buyer.id), languageId: '2' });
    expect(await texts(page, '[data-testid="page-user-panel"] h1')).to.deep.equal(['내 구독']);
    expect(await texts(page, '[data-testid="page-user-panel"] h2')).to.deep.equal(['프로필', '구독', '친구 초대']);
    expect(await texts(page, '[data-testid="page-user-panel"] h4')).to.deep.equal([`${platform.name} (KO)`]);
    expect(await text(page, within(item, 'panel-slot'))).to.equal(`프로필 번호 ${subscription.slot} 사용`);
    const korean = await page.$$eval(`${item} time`, (elements) => elements.map((element) => element.textContent));
    expect(korean).to.deep.equal(
      await page.evaluate(
        (isos: string[]) => isos.map((iso) => new Intl.DateTimeFormat('ko', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))),
        expected,
      ),
    );
    expect(await page.title()).to.equal('내 구독 | subshare');

    // Renew: the same platform's page, where buying again extends this subscription.
    await page.click(within(item, 'panel-renew'));
    await page.waitForFunction((id) => location.pathname === `/platform/${id}`, {}, platform.id);
    await page.close();
  });

  it('a family-invitation order: the form (sent only when valid), then the e-mail read-only and the activation note', async () => {
    const platform = await createPlatform({ slotsCount: 6, needsInvitation: true, category: 1 });
    await createAccount(platform.id, 6);
    const buyer = await loginAs('user');
    const orderId = await orderByApi(buyer, platform);
    await payWithDemo(buyer, orderId);
    // Paid, waiting for the invitation (state 6).
    await waitFor(async () => (await knex()('orders').where({ id: orderId }).first()).state === 6, { what: 'the payment' });

    const page = await openPage({ user: buyer, viewport: PHONE });
    const { calls } = recordApi(page);
    await page.goto(`${baseUrl}/user/${buyer.id}`);
    await loadedPanel(page);
    const item = `[data-testid="panel-incomplete-item"][data-order-id="${orderId}"]`;
    await page.waitForSelector(item);
    expect(await text(page, within(item, 'panel-item-order'))).to.equal(String(orderId));
    expect(await text(page, within(item, 'panel-item-type'))).to.not.equal('');
    expect(await text(page, within(item, 'panel-item-duration'))).to.not.equal('');
    expect(await text(page, within(item, 'panel-invitation-note'))).to.contain('family-group invitation');
    // The e-mail is still missing: no 'will be activated' note yet, and nothing active.
    expect(await page.$(within(item, 'panel-activation-note'))).to.equal(null);
    expect(await page.$(within(item, 'panel-invitation-readonly'))).to.equal(null);
    expect(await text(page, '[data-testid="panel-active-empty"]')).to.contain('No active subscriptions yet.');
    // The field is labelled.
    const label = await page.$eval(within(item, 'panel-invitation-input'), (input) => (input as HTMLInputElement).labels?.[0]?.textContent ?? '');
    expect(clean(label)).to.contain(`E-mail of your ${platform.name} login`);

    // Not an e-mail: the form says so and sends nothing.
    await typeInto(page, within(item, 'panel-invitation-input'), 'not-an-email');
    await page.click(within(item, 'panel-invitation-submit'));
    await page.waitForSelector(within(item, 'field-error-email'), { visible: true });
    expect(await text(page, within(item, 'field-error-email'))).to.equal('Enter a valid e-mail address.');
    expect(calls.filter((call) => call.path === INVITATION_PATH)).to.deep.equal([]);

    // A valid one: sent, and shown read-only as the server answered it (lower-cased).
    await typeInto(page, within(item, 'panel-invitation-input'), 'Family.Member@Example.test');
    await page.click(within(item, 'panel-invitation-submit'));
    await page.waitForSelector(within(item, 'panel-invitation-readonly'));
    expect(await text(page, within(item, 'panel-invitation-readonly'))).to.equal('family.member@example.test');
    expect(await page.$(within(item, 'panel-invitation-form'))).to.equal(null);
    expect(await text(page, within(item, 'panel-activation-note'))).to.equal(
      'Your subscription will be activated within 24 hours. We will send you an e-mail once it is active.',
    );
    expect(calls.filter((call) => call.path === INVITATION_PATH).map((call) => call.body)).to.deep.equal([{ email: 'family.member@example.test', orderId }]);
    const stored = await knex()('order_items').where({ order_id: orderId }).first();
    expect(stored.invitation_email).to.equal('family.member@example.test');
    // On a phone the page fits the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).to.equal(true);

    // It stays read-only: after a reload the server's copy is shown, and no form.
    await page.reload();
    await loadedPanel(page);
    await page.waitForSelector(within(item, 'panel-invitation-readonly'));
    expect(await text(page, within(item, 'panel-invitation-readonly'))).to.equal('family.member@example.test');
    expect(await page.$(within(item, 'panel-invitation-form'))).to.equal(null);
    await page.close();
  });

  it("another buyer opening the first buyer's /user/{id} sees a refusal and none of the data", async () => {
    const platform = await createPlatform({ slotsCount: 3, category: 1 });
    const account = await createAccount(platform.id, 3);
    const owner = await loginAs('user');
    const orderId = await orderByApi(owner, platform);
    await markPaidQuietly(orderId);
    await activation().activate(orderId);

    const stranger = await loginAs('user');
    const page = await openPage({ user: stranger });
    const { statuses } = recordApi(page);
    await page.goto(`${baseUrl}/user/${owner.id}`);
    await page.waitForSelector('[data-testid="page-user-panel"][data-status="forbidden"]');
    expect(statuses.filter((entry) => entry.path === PANEL_PATH)).to.deep.equal([{ path: PANEL_PATH, status: 403 }]);
    expect(await texts(page, '[data-testid="page-user-panel"] h1')).to.deep.equal(['This panel is not yours']);
    expect(await page.$eval('[data-testid="panel-refused"]', (element) => element.getAttribute('role'))).to.equal('alert');
    expect(await text(page, '[data-testid="panel-refused"]')).to.contain('You can only see your own subscriptions.');
    const body = await page.$eval('body', (element) => element.textContent ?? '');
    for (const secret of [owner.email, account.email, account.password]) expect(body).to.not.contain(secret);
    expect(await page.$('[data-testid="panel-active-item"]')).to.equal(null);
    // Only logged: no snackbar. The way on: their own panel.
    expect(await page.$('[data-testid="snackbar"]')).to.equal(null);
    expect(await page.$eval('[data-testid="panel-own-link"]', (link) => new URL((link as HTMLAnchorElement).href).pathname)).to.equal(`/user/${stranger.id}`);
    await page.click('[data-testid="panel-own-link"]');
    await page.waitForSelector(`[data-testid="page-user-panel"][data-user-id="${stranger.id}"][data-status="loaded"]`);
    expect(await text(page, '[data-testid="panel-email"]')).to.equal(stranger.email);
    expect(await page.$$('[data-testid="panel-active-item"]')).to.have.length(0);

    // An address that is no user id: not found, and the server is not asked.
    const before = statuses.length;
    await page.goto(`${baseUrl}/user/me`);
    await page.waitForSelector('[data-testid="page-user-panel"][data-status="notFound"] [data-testid="panel-refused"]');
    expect(statuses.slice(before).filter((entry) => entry.path === PANEL_PATH)).to.deep.equal([]);
    await page.close();
  });

  it('a panel load failure is only logged: no snackbar, the page says so and offers a retry', async () => {
    const buyer = await loginAs('user');
    const page = await openPage({ user: buyer });
    let failures = 1;
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await page.setRequestInterception(true);
    page.on('request', (request: HTTPRequest) => {
      if (!request.url().includes(PANEL_PATH) || failures === 0) return void request.continue();
      failures -= 1;
      void request.respond({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'boom', code: 'internal' }) });
    });
    await page.goto(`${baseUrl}/user/${buyer.id}`);
    await page.waitForSelector('[data-testid="page-user-panel"][data-status="failed"] [data-testid="panel-failed"]');
    expect(logged.some((line) => line.includes('user panel load failed'))).to.equal(true);
    expect(await page.$('[data-testid="snackbar"]')).to.equal(null);
    await page.click('[data-testid="panel-retry"]');
    await loadedPanel(page);
    expect(await text(page, '[data-testid="panel-email"]')).to.equal(buyer.email);
    await page.close();
  });
});
