import { expect } from 'chai';
import type { HTTPResponse, Page } from 'puppeteer-core';
import { AccountHealthFlow } from '@subshare/core';
import { harness } from '../support/harness.js';
import { createAccount, createPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';
import { DESKTOP, openBrowser, PHONE, type BrowserSession } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

interface WireAmount {
  currencyId: number;
  price: number;
}
interface WirePlatform {
  id: number;
  name: string;
  description: string;
  duration: Array<{ id: number; name: string; value: number; isEnable: boolean }>;
  type: Array<{ id: number; name: string; isEnable: boolean }>;
  prices: Array<{ durationId: number; typeId: number; price: WireAmount[]; salePrice: WireAmount[] }>;
  faq: Array<{ question: string; answer: string }>;
  haveInvitation?: boolean;
}

const CURRENCY_IDS = { EUR: 1, KRW: 2 } as const;

/** What the page must show for a price: "€3.59", "₩53,100" (EUR with cents, KRW without decimals). */
function shown(amount: number, currency: 'EUR' | 'KRW'): string {
  return currency === 'EUR' ? `€${amount.toFixed(2)}` : `₩${Math.round(amount).toLocaleString('en-US')}`;
}

function sale(platform: WirePlatform, durationId: number, typeId: number, currency: 'EUR' | 'KRW'): number {
  const entry = platform.prices.find((price) => price.durationId === durationId && price.typeId === typeId)!;
  return entry.salePrice.find((amount) => amount.currencyId === CURRENCY_IDS[currency])!.price;
}

function monthly(platform: WirePlatform, durationId: number, typeId: number, currency: 'EUR' | 'KRW'): number {
  const months = platform.duration.find((duration) => duration.id === durationId)!.value;
  const value = sale(platform, durationId, typeId, currency) / months;
  return currency === 'EUR' ? Math.round((value + Number.EPSILON) * 100) / 100 : Math.round(value);
}

/** A visitor picks a platform, changes its options, sees the prices follow, and goes to pay. */
describe('browser: storefront platform page', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
  });
  after(() => browser?.close());

  async function apiPlatform(id: number, languageId = 1): Promise<WirePlatform> {
    const response = await fetch(`${baseUrl}/api/platform/getplatform?id=${id}&languageId=${languageId}&currency=EUR`);
    expect(response.status).to.equal(200);
    return ((await response.json()) as { platform: WirePlatform }).platform;
  }

  async function englishPage(viewport = DESKTOP): Promise<Page> {
    const page = await browser.newPage(viewport);
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
    return page;
  }

  const loaded = (page: Page, id: number) => page.waitForSelector(`[data-testid="page-platform"][data-status="loaded"][data-platform-id="${id}"]`);
  const text = (page: Page, testId: string) => page.$eval(`[data-testid="${testId}"]`, (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim());
  const optionIds = (page: Page, kind: 'type' | 'duration') =>
    page.$$eval(`[data-testid="${kind}-option"]`, (elements) => elements.map((element) => Number(element.getAttribute('data-option-id'))));
  const selectedIds = (page: Page, kind: 'type' | 'duration') =>
    page.$$eval(`[data-testid="${kind}-option"][data-selected="true"]`, (elements) =>
      elements.map((element) => Number(element.getAttribute('data-option-id'))),
    );

  async function expectPrices(page: Page, platform: WirePlatform, durationId: number, typeId: number) {
    const expectedSale = shown(sale(platform, durationId, typeId, 'EUR'), 'EUR');
    const expectedMonthly = `${shown(monthly(platform, durationId, typeId, 'EUR'), 'EUR')}/month`;
    await page.waitForFunction(
      (value) => document.querySelector('[data-testid="platform-sale-price"]')?.textContent?.replace(/\s+/g, ' ').trim() === value,
      { timeout: 5_000 },
      expectedSale,
    );
    expect(await text(page, 'platform-monthly-price')).to.equal(expectedMonthly);
  }

  it('Home → platform → options → prices → go to payment: logged out, the login page with the return URL saved', async () => {
    const page = await englishPage();
    const platformRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/platform/getplatform')) platformRequests.push(request.url());
    });
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="platform-card"][data-platform-id="1"]');
    await page.click('[data-testid="platform-card"][data-platform-id="1"] [data-testid="platform-card-details"]');
    await page.waitForFunction(() => location.pathname === '/platform/1');
    await loaded(page, 1);

    // On load: the platform is requested in the current language (English).
    expect(platformRequests.some((url) => /[?&]id=1(&|$)/.test(url) && /[?&]languageId=1(&|$)/.test(url))).to.equal(true);
    const platform = await apiPlatform(1);
    expect(await text(page, 'platform-name')).to.equal(platform.name);
    expect(await page.$eval('[data-testid="platform-name"]', (element) => element.tagName)).to.equal('H1');
    expect(await text(page, 'platform-description')).to.equal(platform.description.replace(/\s+/g, ' ').trim());
    expect(await page.$$eval('[data-testid="platform-how-it-works-item"]', (items) => items.length)).to.be.greaterThan(0);
    expect(await page.$eval('[data-testid="platform-logo"]', (image) => (image as HTMLImageElement).alt)).to.contain(platform.name);
    expect(await page.title()).to.contain(platform.name);

    // Both brand colours: the header on the first, the payment button on the second.
    const colours = await page.evaluate(() => ({
      header: getComputedStyle(document.querySelector('[data-testid="platform-header"]')!).backgroundColor,
      button: getComputedStyle(document.querySelector('[data-testid="platform-go-to-payment"]')!).backgroundColor,
    }));
    const rows = await harness().knex('platforms').where({ id: 1 }).first('color_one', 'color_two');
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    expect(colours.header).to.equal(rgb(rows.color_one));
    expect(colours.button).to.equal(rgb(rows.color_two));

    // The first enabled type and duration are preselected and ticked; the rest are not.
    const firstType = platform.type.find((type) => type.isEnable)!.id;
    const firstDuration = platform.duration.find((duration) => duration.isEnable)!.id;
    expect(await selectedIds(page, 'type')).to.deep.equal([firstType]);
    expect(await selectedIds(page, 'duration')).to.deep.equal([firstDuration]);
    expect(await page.$$eval('[data-testid="duration-option"] [data-testid="option-tick"]', (ticks) => ticks.length)).to.equal(1);
    expect(await page.$(`[data-testid="duration-option"][data-option-id="${firstDuration}"] [data-testid="option-tick"]`)).to.not.equal(null);
    // Real radio groups: a fieldset with a legend, native radios with the choice checked.
    const radios = await page.$$eval('[data-testid="platform-duration-options"] input[type="radio"]', (inputs) =>
      inputs.map((input) => ({ checked: (input as HTMLInputElement).checked, name: (input as HTMLInputElement).name })),
    );
    expect(radios.filter((radio) => radio.checked)).to.have.length(1);
    expect(new Set(radios.map((radio) => radio.name)).size).to.equal(1);
    expect(await page.$eval('[data-testid="platform-duration-options"]', (element) => element.tagName)).to.equal('FIELDSET');
    await expectPrices(page, platform, firstDuration, firstType);

    // Changing the duration and the type changes the prices.
    const twelve = platform.duration.find((duration) => duration.value === 12 && duration.isEnable)!;
    const before = await text(page, 'platform-sale-price');
    await page.click(`[data-testid="duration-option"][data-option-id="${twelve.id}"]`);
    expect(await selectedIds(page, 'duration')).to.deep.equal([twelve.id]);
    await expectPrices(page, platform, twelve.id, firstType);
    expect(await text(page, 'platform-sale-price')).to.not.equal(before);

    const otherType = platform.type.find((type) => type.isEnable && type.id !== firstType)!;
    await page.click(`[data-testid="type-option"][data-option-id="${otherType.id}"]`);
    expect(await selectedIds(page, 'type')).to.deep.equal([otherType.id]);
    await expectPrices(page, platform, twelve.id, otherType.id);

    // The keyboard works as in any radio group: an arrow key moves the choice.
    await page.focus(`[data-testid="duration-option"][data-option-id="${twelve.id}"] input`);
    await page.keyboard.press('ArrowLeft');
    const previous = platform.duration.filter((duration) => duration.isEnable).at(-2)!;
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="duration-option"][data-selected="true"]')?.getAttribute('data-option-id') === String(id),
      {},
      previous.id,
    );
    await expectPrices(page, platform, previous.id, otherType.id);

    // Go to payment: the choice is stored for the payment page; logged out, the guard sends the visitor to log in.
    await page.click('[data-testid="platform-go-to-payment"]');
    await page.waitForFunction(() => location.pathname === '/login');
    await page.waitForSelector('[data-testid="login-step"][data-step="check"]');
    const stored = await page.evaluate(() => ({
      returnUrl: sessionStorage.getItem('subshare.returnUrl'),
      selection: JSON.parse(sessionStorage.getItem('subshare.selection') ?? 'null'),
    }));
    expect(stored.returnUrl).to.equal(`/payment?platform=1&type=${otherType.id}&duration=${previous.id}`);
    expect(stored.selection).to.deep.equal({ platformId: 1, typeId: otherType.id, durationId: previous.id });
    await page.close();
  });

  it('opens and closes each FAQ question on its own; all start closed', async () => {
    const page = await englishPage();
    await page.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
    await loaded(page, 1);
    const platform = await apiPlatform(1);
    const state = () =>
      page.$$eval('[data-testid="faq-item"]', (items) =>
        items.map((item) => ({
          expanded: String(item.querySelector('details')!.open),
          visible: item.querySelector('[data-testid="faq-answer"]')!.checkVisibility(),
        })),
      );
    expect(await page.$$eval('[data-testid="faq-question"]', (buttons) => buttons.map((button) => button.textContent))).to.deep.equal(
      platform.faq.map((entry) => entry.question),
    );
    expect(await state()).to.deep.equal(platform.faq.map(() => ({ expanded: 'false', visible: false })));

    const questions = await page.$$('[data-testid="faq-question"]');
    // Native disclosures (issue 24: they work before and without script): a summary in each details.
    const controls = await page.$$eval('[data-testid="faq-question"]', (summaries) =>
      summaries.map((summary) => ({ tag: summary.tagName, parent: summary.parentElement!.tagName, heading: summary.querySelector('h3') !== null })),
    );
    for (const control of controls) expect(control).to.deep.equal({ tag: 'SUMMARY', parent: 'DETAILS', heading: true });

    await questions[0]!.click();
    expect((await state()).map((item) => item.expanded)).to.deep.equal(['true', 'false', 'false']);
    expect((await state())[0]!.visible).to.equal(true);
    expect(await page.$eval('[data-testid="faq-item"] [data-testid="faq-answer"]', (answer) => answer.textContent)).to.equal(platform.faq[0]!.answer);
    await questions[2]!.click();
    expect((await state()).map((item) => item.expanded)).to.deep.equal(['true', 'false', 'true']);
    await questions[0]!.click();
    expect((await state()).map((item) => item.expanded)).to.deep.equal(['false', 'false', 'true']);
    // Keyboard: Enter on the focused question toggles it too.
    await questions[1]!.focus();
    await page.keyboard.press('Enter');
    expect((await state()).map((item) => item.expanded)).to.deep.equal(['false', 'true', 'true']);
    await page.close();
  });

  it('shows no FAQ section for a platform without entries (kinoly)', async () => {
    const page = await englishPage();
    await page.goto(`${baseUrl}/platform/3`, { waitUntil: 'networkidle0' });
    await loaded(page, 3);
    expect((await apiPlatform(3)).faq).to.have.length(0);
    expect(await page.$('[data-testid="platform-faq"]')).to.equal(null);
    expect(await page.$('[data-testid="faq-item"]')).to.equal(null);
    expect(await page.$('[data-testid="platform-sale-price"]')).to.not.equal(null);
    await page.close();
  });

  it('shows only enabled options: reelnest without 12 months and Premium, echora without 1 month', async () => {
    const page = await englishPage();
    for (const id of [2, 5]) {
      await page.goto(`${baseUrl}/platform/${id}`, { waitUntil: 'networkidle0' });
      await loaded(page, id);
      const platform = await apiPlatform(id);
      const enabledTypes = platform.type.filter((type) => type.isEnable).map((type) => type.id);
      const enabledDurations = platform.duration.filter((duration) => duration.isEnable).map((duration) => duration.id);
      expect(enabledDurations.length).to.be.lessThan(platform.duration.length);
      expect(await optionIds(page, 'type')).to.deep.equal(enabledTypes);
      expect(await optionIds(page, 'duration')).to.deep.equal(enabledDurations);
      expect(await selectedIds(page, 'duration')).to.deep.equal([enabledDurations[0]]);
      expect(await selectedIds(page, 'type')).to.deep.equal([enabledTypes[0]]);
      await expectPrices(page, platform, enabledDurations[0]!, enabledTypes[0]!);
    }
    // reelnest: 12 months (duration 4) and Premium (type 2) are off.
    await page.goto(`${baseUrl}/platform/2`, { waitUntil: 'networkidle0' });
    await loaded(page, 2);
    expect(await page.$('[data-testid="duration-option"][data-option-id="4"]')).to.equal(null);
    expect(await page.$('[data-testid="type-option"][data-option-id="2"]')).to.equal(null);
    // echora: 1 month is off, so 3 months comes first.
    await page.goto(`${baseUrl}/platform/5`, { waitUntil: 'networkidle0' });
    await loaded(page, 5);
    expect(await page.$('[data-testid="duration-option"][data-option-id="1"]')).to.equal(null);
    await page.close();
  });

  it('tells buyers of a family-group platform (tunewell) which e-mail to give, and no one else', async () => {
    const page = await englishPage();
    await page.goto(`${baseUrl}/platform/4`, { waitUntil: 'networkidle0' });
    await loaded(page, 4);
    expect((await apiPlatform(4)).haveInvitation).to.equal(true);
    expect(await text(page, 'platform-invitation-note')).to.match(/family group/);
    await page.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
    await loaded(page, 1);
    expect(await page.$('[data-testid="platform-invitation-note"]')).to.equal(null);
    await page.close();
  });

  it('says a platform is off sale while every account is broken (server-rendered and after client navigation, both languages) and sells it again after repair', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    const account = await createAccount(platform.id, 2);
    const flow = harness().container.get(AccountHealthFlow);
    await flow.setHealth({ label: 'test' }, { accountId: account.id, state: 'broken', reason: 'owner locked us out' });
    const offSale = async () => ((await apiPlatform(platform.id)) as WirePlatform & { offSale: boolean }).offSale;
    await waitFor(offSale, { what: 'the platform off sale' });
    const disabled = (page: Page) => page.$eval('[data-testid="platform-go-to-payment"]', (element) => (element as HTMLButtonElement).disabled);

    // English, the page as the server renders it (and hydrated).
    const english = await englishPage();
    await english.goto(`${baseUrl}/platform/${platform.id}`, { waitUntil: 'networkidle0' });
    await loaded(english, platform.id);
    expect(await text(english, 'platform-off-sale')).to.equal('Off sale for now: we are repairing the accounts of this platform. Please come back later.');
    expect(await disabled(english)).to.equal(true);

    // Korean, reached from the home page: the page the browser renders from the API.
    const korean = await browser.newPage(DESKTOP);
    await korean.setExtraHTTPHeaders({ 'Accept-Language': 'ko-KR,ko;q=0.9' });
    await korean.goto(baseUrl, { waitUntil: 'networkidle0' });
    await korean.click(`[data-testid="platform-card"][data-platform-id="${platform.id}"] [data-testid="platform-card-details"]`);
    await korean.waitForFunction((id) => location.pathname === `/platform/${id}`, {}, platform.id);
    await loaded(korean, platform.id);
    expect(await text(korean, 'platform-off-sale')).to.equal('지금은 판매하지 않습니다. 이 플랫폼의 계정을 복구하는 중이니 나중에 다시 찾아 주세요.');
    expect(await disabled(korean)).to.equal(true);
    await korean.close();

    // Repaired: on sale again, no message, the button back.
    await flow.setHealth({ label: 'test' }, { accountId: account.id, state: 'ok', reason: 'password reset by us' });
    await waitFor(async () => !(await offSale()), { what: 'the platform back on sale' });
    await english.goto(`${baseUrl}/platform/${platform.id}`, { waitUntil: 'networkidle0' });
    await loaded(english, platform.id);
    expect(await english.$('[data-testid="platform-off-sale"]')).to.equal(null);
    expect(await disabled(english)).to.equal(false);
    await english.close();
  });

  it('answers an unknown or malformed platform id with a proper not-found page', async () => {
    const page = await englishPage();
    const getplatform: HTTPResponse[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/platform/getplatform')) getplatform.push(response);
    });
    for (const path of ['/platform/9999', '/platform/abc', '/platform/0', '/platform/1e3']) {
      const response = await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle0' });
      // The server renders the not-found page itself, with status 404.
      expect(response?.status(), path).to.equal(404);
      await page.waitForSelector('[data-testid="page-not-found"]');
      expect(await page.$eval('[data-testid="not-found-kind"]', (element) => element.getAttribute('data-kind'))).to.equal('platform');
      expect(await page.$$eval('h1', (headings) => headings.map((heading) => heading.textContent))).to.deep.equal(['Platform not found']);
      expect(await page.title()).to.contain('Platform not found');
      expect(await page.$('meta[name="robots"][content="noindex"]')).to.not.equal(null);
      expect(await page.$('[data-testid="not-found-home"]')).to.not.equal(null);
      expect(await page.$('[data-testid="page-platform"]')).to.equal(null);
    }
    // The pages came rendered: the API was not asked again.
    expect(getplatform.map((response) => response.status())).to.deep.equal([]);
    // Back home from there.
    await page.click('[data-testid="not-found-home"]');
    await page.waitForSelector('[data-testid="page-home"]');
    expect(await page.$('meta[name="robots"][content="noindex"]')).to.equal(null);
    await page.close();
  });

  it('when the platform cannot be loaded: no snackbar, a retry that works', async () => {
    const page = await englishPage();
    let failing = true;
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (failing && request.url().includes('/api/platform/getplatform'))
        void request.respond({ status: 500, contentType: 'application/json', body: '{"message":"x"}' });
      else void request.continue();
    });
    // Opened from home: the page asks the API (a platform opened directly comes rendered by the server).
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    await page.click('[data-testid="platform-card"][data-platform-id="3"] [data-testid="platform-card-purchase"]');
    await page.waitForSelector('[data-testid="page-platform"][data-status="failed"] [data-testid="platform-retry"]');
    expect(await page.$('[data-testid="snackbar"]')).to.equal(null);
    failing = false;
    await page.click('[data-testid="platform-retry"]');
    await loaded(page, 3);
    expect(await page.$('[data-testid="platform-failed"]')).to.equal(null);
    await page.close();
  });

  it('on a phone: home and platform page fit the screen, options and payment work', async () => {
    const page = await englishPage(PHONE);
    await page.goto(baseUrl, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="platform-card"]');
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).to.equal(true);
    expect(await page.$('[data-testid="nav-menu-toggle"]')).to.not.equal(null);
    expect(await page.$('[data-testid="currency-toggle"]')).to.not.equal(null);
    // Spec: the main container is at least the window height minus 120.
    const heights = await page.evaluate(() => ({ main: document.querySelector('main')!.getBoundingClientRect().height, window: window.innerHeight }));
    expect(heights.main).to.be.at.least(heights.window - 120);

    await page.click('[data-testid="platform-card"][data-platform-id="5"] [data-testid="platform-card-purchase"]');
    await loaded(page, 5);
    expect(await fits()).to.equal(true);
    const platform = await apiPlatform(5);
    const durations = platform.duration.filter((duration) => duration.isEnable);
    const type = platform.type.find((entry) => entry.isEnable)!;
    await page.click(`[data-testid="duration-option"][data-option-id="${durations[1]!.id}"]`);
    await expectPrices(page, platform, durations[1]!.id, type.id);
    // Every option can be tapped comfortably.
    const boxes = await page.$$eval('[data-testid="duration-option"]', (options) => options.map((option) => option.getBoundingClientRect().height));
    for (const height of boxes) expect(height).to.be.at.least(44);
    await page.click('[data-testid="platform-go-to-payment"]');
    await page.waitForFunction(() => location.pathname === '/login');
    expect(await page.evaluate(() => sessionStorage.getItem('subshare.returnUrl'))).to.equal(
      `/payment?platform=5&type=${type.id}&duration=${durations[1]!.id}`,
    );
    await page.close();
  });

  it('is accessible: one h1, landmarks, skip link first, labelled images and controls, lang, at most 1280px wide', async () => {
    const page = await englishPage({ width: 1600, height: 900 });
    await page.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
    await loaded(page, 1);
    const audit = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      h1: document.querySelectorAll('h1').length,
      landmarks: ['header', 'nav', 'main', 'footer'].map((tag) => document.querySelectorAll(tag).length > 0),
      imagesWithoutAlt: [...document.querySelectorAll('img')].filter((image) => !image.hasAttribute('alt')).length,
      imagesWithoutSize: [...document.querySelectorAll('img')].filter((image) => !image.getAttribute('width') || !image.getAttribute('height')).length,
      unlabelledRadios: [...document.querySelectorAll('input[type="radio"]')].filter((input) => !input.closest('label')?.textContent?.trim()).length,
      currencyLabel: document.querySelector('[data-testid="currency-toggle"]')?.getAttribute('aria-label'),
      mainWidth: document.querySelector('main')!.getBoundingClientRect().width,
    }));
    expect(audit).to.deep.include({ lang: 'en', h1: 1, imagesWithoutAlt: 0, imagesWithoutSize: 0, unlabelledRadios: 0, currencyLabel: '€ EUR, Currency' });
    expect(audit.landmarks).to.deep.equal([true, true, true, true]);
    expect(audit.mainWidth).to.be.at.most(1280);

    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).to.equal('skip-link');
    const skipVisible = await page.$eval('[data-testid="skip-link"]', (link) => link.getBoundingClientRect().top >= 0);
    expect(skipVisible).to.equal(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('MAIN');
    // The next Tab lands in the page, with a visible focus outline.
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      // A radio is drawn by its card (the input itself is visually hidden): the card shows the focus.
      const style = getComputedStyle(element.matches('input[type="radio"]') ? element.closest('label')! : element);
      return { inMain: Boolean(element.closest('main')), outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 };
    });
    expect(outline).to.deep.equal({ inMain: true, outline: true });
    await page.close();
  });
});
