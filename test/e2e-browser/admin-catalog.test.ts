import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { ElementHandle, HTTPRequest, Page } from 'puppeteer-core';
import { listen } from '@subshare/http';
import { loginAs, type TestUser } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { onFreePort } from '../support/ports.js';
import {
  closeSnackbar,
  loggedInPage,
  navigateInApp,
  openBrowser,
  PHONE,
  snackbarShown,
  type BrowserSession,
  type LoggedInPageOptions,
} from '../support/browser.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

const ROLE = { user: 0, moderator: 1, admin: 2 } as const;

/** A small logo the upload accepts (an SVG), one it refuses in the browser (a text file), unique per call. */
function logoFiles() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'subshare-logo-'));
  const svg = path.join(dir, 'logo.svg');
  const stamp = `${Date.now()}-${Math.random()}`;
  writeFileSync(
    svg,
    `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80"><title>${stamp}</title><rect width="240" height="80" fill="#ffffff"/></svg>`,
  );
  const text = path.join(dir, 'notes.txt');
  writeFileSync(text, 'not a logo');
  // Named PNG (so the browser sends image/png) but SVG inside: only the server, reading the bytes, can tell.
  const disguised = path.join(dir, 'disguised.png');
  writeFileSync(disguised, `<svg xmlns="http://www.w3.org/2000/svg"><title>${stamp}</title></svg>`);
  return { svg, text, disguised };
}

/**
 * The catalog editor in Chromium (issue 15): an admin creates a platform with its texts in both
 * languages, a logo, and prices in EUR and KRW; a buyer sees it on the home page and buys it
 * through the demo provider; the admin changes the price and the old order keeps its total; a
 * stale save (another admin saved first) shows what changed and overwrites nothing; Korean
 * labels and messages render; a phone gets the editor within its width; a moderator gets none.
 */
describe('browser: the catalog editor', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let server: { close(): Promise<void> } | undefined;
  let admin: TestUser;
  let moderator: TestUser;
  const knex = () => harness().knex;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    const started = await onFreePort((port) => listen(harness().appWith({ PUBLIC_URL: `http://127.0.0.1:${port}` }).app, port, '127.0.0.1'));
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
    [admin, moderator] = await Promise.all([loginAs('admin'), loginAs('moderator')]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  function openPage(user: TestUser, role: number, options: Pick<LoggedInPageOptions, 'language' | 'viewport'> = {}): Promise<Page> {
    return loggedInPage(browser, baseUrl, user, { role, ...options });
  }

  const clean = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent).then(clean);
  const value = (page: Page, selector: string) => page.$eval(selector, (element) => (element as HTMLInputElement).value);
  const testId = (id: string) => `[data-testid="${id}"]`;
  const infoSnackbar = (page: Page, message: string) => snackbarShown(page, message);

  async function settled(page: Page) {
    await page.waitForSelector(testId('loading-overlay'), { hidden: true });
  }

  async function click(page: Page, selector: string) {
    await settled(page);
    const element = await page.waitForSelector(selector, { visible: true });
    await element!.click();
  }

  /** Replaces a field's text as an admin would: select all, delete, type. */
  async function fill(page: Page, selector: string, typed: string) {
    const field = await page.waitForSelector(selector, { visible: true });
    await field!.click();
    await field!.evaluate((element) => (element as HTMLInputElement).select());
    await page.keyboard.press('Backspace');
    await field!.type(typed);
  }

  /**
   * Replaces a field's text at once, as a paste does (one input event, not one a character): for
   * the forms a test only needs filled. Typing re-renders the editor and its live preview on each
   * character: pasting the stale-save test's form took the file from 67 to 54 CPU-seconds.
   */
  async function paste(page: Page, selector: string, text: string) {
    const field = await page.waitForSelector(selector, { visible: true });
    await field!.click();
    await field!.evaluate((element) => (element as HTMLInputElement).select());
    await page.keyboard.press('Backspace');
    await page.keyboard.sendCharacter(text);
  }

  const cell = (durationKey: string, typeKey: string, input: 'eur-price' | 'eur-sale' | 'krw-price' | 'krw-sale') =>
    `[data-testid="admin-catalog-price"][data-duration-key="${durationKey}"][data-type-key="${typeKey}"] ${testId(`admin-catalog-price-${input}`)}`;

  /** The hidden file input behind a logo's Upload button. */
  async function fileInput(page: Page, field: string) {
    const input = await page.$(testId(`admin-catalog-${field}-file`));
    return input as ElementHandle<HTMLInputElement>;
  }

  /** The catalog calls the page makes (POSTs), by path. */
  function recordCatalogPosts(page: Page) {
    const posts: string[] = [];
    page.on('request', (request: HTTPRequest) => {
      const url = new URL(request.url());
      if (request.method() === 'POST' && url.pathname.startsWith('/api/catalog/')) posts.push(url.pathname);
    });
    return posts;
  }

  /** Fills the new-platform form: texts in both languages, colours, the logo, one duration and one type with their prices. */
  async function fillNewPlatform(page: Page, name: string, enter: typeof fill = fill) {
    const files = logoFiles();
    await enter(page, testId('admin-catalog-name-en'), name);
    await enter(page, testId('admin-catalog-name-ko'), `${name} 코리아`);
    await enter(page, testId('admin-catalog-description-en'), 'Films and series on a shared account.');
    await enter(page, testId('admin-catalog-description-ko'), '공유 계정으로 보는 영화와 시리즈.');
    await click(page, testId('admin-catalog-add-point'));
    await enter(page, testId('admin-catalog-howItWorks-0-en'), 'Pay once.');
    await enter(page, testId('admin-catalog-howItWorks-0-ko'), '한 번 결제하세요.');
    await click(page, testId('admin-catalog-add-faq'));
    await enter(page, testId('admin-catalog-faq-0-question-en'), 'Is it shared?');
    await enter(page, testId('admin-catalog-faq-0-question-ko'), '공유인가요?');
    await enter(page, testId('admin-catalog-faq-0-answer-en'), 'Yes, one profile is yours.');
    await enter(page, testId('admin-catalog-faq-0-answer-ko'), '네, 프로필 하나가 당신의 것입니다.');
    await enter(page, testId('admin-catalog-colorOne'), '#0a3d62');
    await enter(page, testId('admin-catalog-colorTwo'), '#e55039');

    // The browser refuses a file that is no logo before anything is sent; an SVG is uploaded.
    const posts = recordCatalogPosts(page);
    await fileInput(page, 'logoBase').then((input) => input.uploadFile(files.text));
    await page.waitForSelector(testId('admin-catalog-logoBase-upload-error'));
    expect(await text(page, testId('admin-catalog-logoBase-upload-error'))).to.equal('Use an SVG, PNG or WebP file.');
    expect(posts).to.deep.equal([]);
    // The server refuses a file whose bytes are not what it claims: its message is shown, the field stays empty.
    await fileInput(page, 'logoBase').then((input) => input.uploadFile(files.disguised));
    await page.waitForSelector(`${testId('admin-catalog-logoBase-upload')}[data-status="failed"]`);
    expect(await text(page, testId('admin-catalog-logoBase-upload-error'))).to.not.equal('');
    expect(await text(page, testId('admin-catalog-logoBase-upload-error'))).to.not.equal('Use an SVG, PNG or WebP file.');
    expect(await value(page, testId('admin-catalog-logoBase'))).to.equal('');
    expect(posts).to.deep.equal(['/api/catalog/uploadlogo']);
    posts.length = 0;
    for (const field of ['logoBase', 'logoCarousel']) {
      await fileInput(page, field).then((input) => input.uploadFile(files.svg));
      await page.waitForSelector(`${testId(`admin-catalog-${field}-upload`)}[data-status="done"]`);
    }
    expect(posts).to.deep.equal(['/api/catalog/uploadlogo', '/api/catalog/uploadlogo']);
    expect(await value(page, testId('admin-catalog-logoBase'))).to.match(/^\/media\/uploads\/[0-9a-f]{64}\.svg$/);

    await page.select(testId('admin-catalog-category'), '0');
    await enter(page, testId('admin-catalog-slotsCount'), '2');
    await click(page, testId('admin-catalog-isEnabled'));
    await click(page, testId('admin-catalog-add-duration'));
    await enter(page, testId('admin-catalog-durations-0-name-en'), '1 month');
    await enter(page, testId('admin-catalog-durations-0-name-ko'), '1개월');
    await enter(page, testId('admin-catalog-durations-0-months'), '1');
    await click(page, testId('admin-catalog-add-type'));
    await enter(page, testId('admin-catalog-types-0-name-en'), 'Premium');
    await enter(page, testId('admin-catalog-types-0-name-ko'), '프리미엄');
    await enter(page, cell('new-1', 'new-1', 'eur-price'), '5.99');
    await enter(page, cell('new-1', 'new-1', 'eur-sale'), '4.99');
    await enter(page, cell('new-1', 'new-1', 'krw-price'), '8900');
    await enter(page, cell('new-1', 'new-1', 'krw-sale'), '6900');
  }

  async function save(page: Page) {
    await click(page, testId('admin-catalog-save'));
  }

  /** Creates a platform through the editor (its texts pasted: the first test types them) and answers its id (the address moves to /jve/catalog/{id}). */
  async function createThroughEditor(page: Page, name: string): Promise<number> {
    await page.goto(`${baseUrl}/jve/catalog/new`);
    await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"]`);
    await fillNewPlatform(page, name, paste);
    await save(page);
    await page.waitForFunction(() => /^\/jve\/catalog\/\d+$/.test(location.pathname));
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"][data-platform-id="${id}"]`);
    return id;
  }

  it('an admin creates a platform (texts, logo, prices in EUR and KRW) with a live preview; a buyer sees it and buys it; a new price leaves the old order its total', async () => {
    const name = `Streamy ${Date.now()}`;
    const page = await openPage(admin, ROLE.admin);
    await page.goto(`${baseUrl}/jve/catalog`);
    await page.waitForSelector(`${testId('admin-catalog')}[data-status="loaded"]`);
    await click(page, testId('admin-menu-catalog'));
    await click(page, testId('admin-catalog-new'));
    await page.waitForFunction(() => location.pathname === '/jve/catalog/new');
    await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"]`);

    // Saving the empty form sends nothing and says what is missing, field by field.
    const posts = recordCatalogPosts(page);
    await save(page);
    await page.waitForSelector(testId('admin-catalog-invalid'));
    expect(await text(page, testId('field-error-name.en'))).to.equal('This field is required.');
    expect(await text(page, testId('field-error-durations'))).to.equal('Add at least one.');
    expect(posts).to.deep.equal([]);

    await fillNewPlatform(page, name);
    // The preview is the storefront's card and header with the form's values.
    expect(await text(page, `${testId('admin-catalog-preview-card')} ${testId('platform-card-name')}`)).to.equal(name);
    expect(await text(page, `${testId('admin-catalog-preview-card')} ${testId('platform-card-price')}`)).to.equal('€4.99/month');
    expect(
      await page.$eval(`${testId('admin-catalog-preview-header')} ${testId('platform-header')}`, (header) => getComputedStyle(header).backgroundColor),
    ).to.equal('rgb(10, 61, 98)');
    // A sale price above the price is refused at its cell.
    await fill(page, cell('new-1', 'new-1', 'krw-sale'), '9900');
    await save(page);
    await page.waitForSelector(testId('field-error-prices.p_new-1__new-1.krw.salePrice'));
    expect(await text(page, testId('field-error-prices.p_new-1__new-1.krw.salePrice'))).to.equal('The sale price cannot be higher than the price.');
    expect(posts.filter((post) => post !== '/api/catalog/uploadlogo')).to.deep.equal([]);
    await fill(page, cell('new-1', 'new-1', 'krw-sale'), '6900');

    await save(page);
    await page.waitForFunction(() => /^\/jve\/catalog\/\d+$/.test(location.pathname));
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await infoSnackbar(page, `${name} is created.`);
    await closeSnackbar(page);
    await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"][data-platform-id="${id}"]`);
    // Read back: the prices as the admin typed them; in the database as minor units.
    expect(await value(page, cell(await durationKey(page), await typeKey(page), 'eur-sale'))).to.equal('4.99');
    expect(await value(page, cell(await durationKey(page), await typeKey(page), 'krw-sale'))).to.equal('6900');

    // A buyer sees it on the home page and buys it through the demo provider.
    const buyer = await loginAs('user');
    const shop = await openPage(buyer, ROLE.user);
    await shop.goto(`${baseUrl}/`);
    const card = `${testId('platform-card')}[data-platform-id="${id}"]`;
    await shop.waitForSelector(card);
    expect(await text(shop, `${card} ${testId('platform-card-name')}`)).to.equal(name);
    expect(await text(shop, `${card} ${testId('platform-card-price')}`)).to.equal('€4.99/month');
    await shop.click(`${card} ${testId('platform-card-purchase')}`);
    await shop.waitForSelector(`${testId('page-platform')}[data-status="loaded"][data-platform-id="${id}"]`);
    await shop.click(testId('platform-go-to-payment'));
    const ready = await shop.waitForSelector(`${testId('page-payment')}[data-status="ready"]`);
    const orderId = Number(await ready!.evaluate((element) => element.getAttribute('data-order-id')));
    expect(await text(shop, testId('payment-total'))).to.equal('€4.99');
    await Promise.all([shop.waitForNavigation({ waitUntil: 'domcontentloaded' }), shop.click(testId('payment-pay'))]);
    await shop.waitForSelector(testId('demo-banner'));
    await Promise.all([shop.waitForNavigation({ waitUntil: 'domcontentloaded' }), shop.click(testId('demo-pay'))]);
    await shop.waitForSelector(`${testId('payment-result')}[data-success="true"]`);
    await waitFor(async () => [2, 6].includes((await knex()('orders').where({ id: orderId }).first()).state), { what: `order ${orderId} paid` });
    expect((await knex()('orders').where({ id: orderId }).first()).total_minor).to.equal(499);

    // The admin lowers the price; the platform page shows it; the order keeps what was paid.
    await fill(page, cell(await durationKey(page), await typeKey(page), 'eur-sale'), '3.49');
    await save(page);
    await infoSnackbar(page, `${name} is saved.`);
    await shop.goto(`${baseUrl}/platform/${id}`);
    await shop.waitForSelector(`${testId('page-platform')}[data-status="loaded"][data-platform-id="${id}"]`);
    expect(await text(shop, testId('platform-sale-price'))).to.equal('€3.49');
    expect((await knex()('orders').where({ id: orderId }).first()).total_minor).to.equal(499);
    // The duration and type now have an order: they can be disabled, no longer removed.
    for (const kind of ['duration', 'type']) {
      expect(await page.$(`${testId(`admin-catalog-${kind}`)}[data-has-orders="true"] ${testId(`admin-catalog-${kind}-has-orders`)}`), kind).to.not.equal(null);
      expect(await page.$(testId(`admin-catalog-${kind}-remove`)), kind).to.equal(null);
    }

    // Hidden from the list: the home page no longer shows it.
    await page.goto(`${baseUrl}/jve/catalog`);
    const row = `${testId('admin-catalog-row')}[data-platform-id="${id}"]`;
    await page.waitForSelector(`${row}[data-enabled="true"]`);
    await click(page, `${row} ${testId('admin-catalog-toggle')}`);
    await click(page, testId('admin-confirm-ok'));
    await page.waitForSelector(`${row}[data-enabled="false"]`);
    expect(await text(page, `${row} ${testId('admin-catalog-state')}`)).to.equal('Hidden');
    await shop.goto(`${baseUrl}/`);
    await shop.waitForSelector(testId('platform-card'));
    expect(await shop.$(card)).to.equal(null);
    await shop.close();
    await page.close();
  });

  /** The first duration's and type's keys in the editor (the server's ids once saved). */
  const durationKey = (page: Page) => page.$eval(testId('admin-catalog-duration'), (element) => element.getAttribute('data-key')!);
  const typeKey = (page: Page) => page.$eval(testId('admin-catalog-type'), (element) => element.getAttribute('data-key')!);

  it('a stale save shows what another admin changed and overwrites nothing; the admin loads theirs or saves over it', async () => {
    const first = await openPage(admin, ROLE.admin);
    const id = await createThroughEditor(first, `Conflicty ${Date.now()}`);
    const second = await openPage(admin, ROLE.admin);
    await second.goto(`${baseUrl}/jve/catalog/${id}`);
    await second.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"][data-platform-id="${id}"]`);

    // The first admin renames it and saves.
    await fill(first, testId('admin-catalog-name-en'), 'Renamed by the first');
    await save(first);
    await first.waitForSelector(`${testId('snackbar')}[data-tone="info"]`);

    // The second, still on the old version, changes a price and saves: refused, told what differs.
    const dKey = await durationKey(second);
    const tKey = await typeKey(second);
    await fill(second, cell(dKey, tKey, 'eur-sale'), '2.99');
    await save(second);
    await second.waitForSelector(testId('admin-catalog-conflict'));
    const fields = (await second.$eval(testId('admin-catalog-conflict'), (element) => element.getAttribute('data-fields')!)).split(',');
    expect(fields).to.include('name');
    expect(await text(second, testId('admin-catalog-conflict-text'))).to.contain('name');
    // Nothing of the second's was saved: the name is the first's, the price the old one.
    const saved = await (await fetch(`${baseUrl}/api/catalog/platform?id=${id}`, { headers: admin.auth })).json();
    expect(saved.name.en).to.equal('Renamed by the first');
    expect(saved.prices[0].eur.salePrice).to.equal(499);
    // Their version: the form shows the first admin's name and the old price.
    await click(second, testId('admin-catalog-conflict-reload'));
    await second.waitForSelector(testId('admin-catalog-conflict'), { hidden: true });
    expect(await value(second, testId('admin-catalog-name-en'))).to.equal('Renamed by the first');
    expect(await value(second, cell(dKey, tKey, 'eur-sale'))).to.equal('4.99');

    // Stale again (the first saves once more), and this time the second keeps theirs, knowingly.
    await fill(first, testId('admin-catalog-name-ko'), '첫 번째가 바꿈');
    await save(first);
    await fill(second, cell(dKey, tKey, 'eur-sale'), '2.99');
    await save(second);
    await second.waitForSelector(testId('admin-catalog-conflict'));
    await click(second, testId('admin-catalog-conflict-reapply'));
    await second.waitForSelector(testId('admin-catalog-conflict'), { hidden: true });
    await waitFor(
      async () => {
        const now = await (await fetch(`${baseUrl}/api/catalog/platform?id=${id}`, { headers: admin.auth })).json();
        return now.prices[0].eur.salePrice === 299;
      },
      { what: 'the re-applied price saved' },
    );
    await first.close();
    await second.close();
  });

  it('in Korean: the menu, the editor and its messages; on a 390 px phone the editor fits the screen', async () => {
    const page = await openPage(admin, ROLE.admin, { language: 'ko', viewport: PHONE });
    await page.goto(`${baseUrl}/jve/catalog/new`);
    await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"]`);
    expect(await text(page, '#admin-catalog-editor-title')).to.equal('새 플랫폼');
    expect(await text(page, testId('admin-catalog-save'))).to.equal('플랫폼 만들기');
    await save(page);
    await page.waitForSelector(testId('field-error-name.ko'));
    expect(await text(page, testId('field-error-name.ko'))).to.equal('필수 항목입니다.');
    expect(await text(page, testId('admin-catalog-invalid'))).to.equal('확인이 필요한 항목이 있습니다.');
    await fill(page, testId('admin-catalog-slotsCount'), '99');
    await page.click(testId('admin-catalog-name-en'));
    await page.waitForSelector(testId('field-error-slotsCount'));
    expect(await text(page, testId('field-error-slotsCount'))).to.equal('1에서 20 사이의 숫자를 입력하세요.');
    // The server's refusal of a logo, in Korean by its code.
    await fileInput(page, 'logoBase').then((input) => input.uploadFile(logoFiles().disguised));
    await page.waitForSelector(`${testId('admin-catalog-logoBase-upload')}[data-status="failed"]`);
    expect(await text(page, testId('admin-catalog-logoBase-upload-error'))).to.equal('파일 내용이 파일 형식과 맞지 않습니다.');
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).to.be.at.most(PHONE.width);
    await click(page, testId('admin-menu-toggle'));
    expect(await text(page, testId('admin-menu-catalog'))).to.equal('플랫폼');
    await page.goto(`${baseUrl}/jve/catalog`);
    await page.waitForSelector(`${testId('admin-catalog')}[data-status="loaded"]`);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).to.be.at.most(PHONE.width);
    // A platform with its options and price grid fits too.
    await page.goto(`${baseUrl}/jve/catalog/1`);
    await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"] ${testId('admin-catalog-price')}`);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).to.be.at.most(PHONE.width);
    await page.close();
  });

  it('every platform of the demo catalog goes through the editor unchanged: opened and saved as it is, the server keeps the same platform', async () => {
    const page = await openPage(admin, ROLE.admin);
    const read = async (id: number) => {
      const response = await fetch(`${baseUrl}/api/catalog/platform?id=${id}`, { headers: admin.auth });
      expect(response.status).to.equal(200);
      const { version: _version, updatedAt: _updatedAt, ...platform } = (await response.json()) as Record<string, unknown>;
      return platform;
    };
    // The seeded platforms: their logos are the shop's own files (the editor's are uploads), and tests' own have slugs test-….
    const demos: Array<{ id: number }> = await knex()('platforms')
      .select('id')
      .where('logo_base', 'like', '/media/platforms/%')
      .whereNot('slug', 'like', 'test-%')
      .orderBy('id');
    expect(demos.length).to.be.greaterThan(3);
    for (const [index, demo] of demos.entries()) {
      const before = await read(demo.id);
      // The first from a fresh document, the next through the app's router (the editor's own
      // loading is what matters here, and a load of the staff area costs Chromium more).
      if (index === 0) await page.goto(`${baseUrl}/jve/catalog/${demo.id}`);
      else await navigateInApp(page, `/jve/catalog/${demo.id}`);
      await page.waitForSelector(`${testId('admin-catalog-editor')}[data-status="loaded"][data-platform-id="${demo.id}"]`);
      // The save itself, awaited by its answer (what this test is about: the form loses nothing);
      // clicking Save as a user does, and its snackbar, are the other tests'. The button is pressed
      // through the DOM: on a busy machine the preview's logos can still move it under a mouse click.
      const answered = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/catalog/updateplatform' && response.request().method() === 'POST',
      );
      await page.$eval(testId('admin-catalog-save'), (button) => (button as HTMLButtonElement).click());
      const answer = await answered;
      expect(answer.status(), `platform ${demo.id}: ${await answer.text()}`).to.equal(200);
      expect(await read(demo.id), `platform ${demo.id}`).to.deep.equal(before);
    }
    await page.close();
  });

  it('a moderator sees no catalog menu entry and no editor', async () => {
    const page = await openPage(moderator, ROLE.moderator);
    await page.goto(`${baseUrl}/jve/catalog`);
    await page.waitForSelector(testId('admin-catalog-admins-only'));
    expect(await page.$(testId('admin-menu-catalog'))).to.equal(null);
    expect(await page.$(testId('admin-menu-users'))).to.not.equal(null);
    await page.close();
  });
});
