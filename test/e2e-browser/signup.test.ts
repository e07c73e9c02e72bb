import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { createUser, uniqueEmail } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { openBrowser, PHONE, type BrowserSession, closeSnackbar } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

/** A visitor signs up, reads the code from the e-mail that arrived by SMTP, and lands where they were going. */
describe('browser: sign-up with an e-mail code', function () {
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

  const step = (page: Page, name: string) => page.waitForSelector(`[data-testid="login-step"][data-step="${name}"]`, { visible: true });

  async function typeInto(page: Page, testId: string, text: string) {
    const field = await page.waitForSelector(`[data-testid="${testId}"]`, { visible: true });
    await field!.click({ count: 3 });
    await field!.type(text);
  }

  async function signUp(page: Page, email: string) {
    // Paying needs a verified login: the shop sends the visitor to log in and remembers where they were going.
    await page.goto(`${baseUrl}/platform/1`, { waitUntil: 'networkidle0' });
    await (await page.waitForSelector('[data-testid="platform-go-to-payment"]', { visible: true }))!.click();
    await page.waitForFunction(() => location.pathname === '/login');
    await step(page, 'check');
    await typeInto(page, 'login-email', email);
    await page.click('[data-testid="login-continue"]');

    await step(page, 'register');
    await typeInto(page, 'login-password', 'my-new-pass-1');
    await typeInto(page, 'login-confirm-password', 'my-new-pass-2');
    await page.click('[data-testid="register-submit"]');
    // The passwords differ: the form says so and sends nothing.
    await page.waitForSelector('[data-testid="field-error-confirmPassword"]', { visible: true });
    expect(await harness().knex('users').where({ email }).first()).to.equal(undefined);
    await typeInto(page, 'login-confirm-password', 'my-new-pass-1');
    await page.click('[data-testid="register-submit"]');

    await step(page, 'verify');
    const mail = await harness().mailTo(email);
    const code = /\b(\d{6})\b/.exec(mail.text)![1];
    await typeInto(page, 'verification-code', code);
    expect(await page.$eval('[data-testid="verification-code-counter"]', (el) => el.textContent?.replace(/\s/g, ''))).to.equal('6/6');
    await page.click('[data-testid="verification-submit"]');
    await page.waitForFunction(() => location.pathname === '/payment');
    // Verified now, the payment page creates the order for what was chosen.
    await page.waitForSelector('[data-testid="page-payment"][data-status="ready"]', { timeout: 20_000 });
    return mail;
  }

  it('in English: register, verify with the mailed code, land on the return URL, logged in', async () => {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-US,en;q=0.9' });
    const email = uniqueEmail('browser-en');
    const mail = await signUp(page, email);
    expect(mail.text).to.not.match(/[\uac00-\ud7a3]/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('subshare.user') ?? 'null'));
    expect(stored).to.include.keys('id', 'token', 'tokenExpiration');
    expect((await harness().knex('users').where({ email }).first()).is_email_verified).to.equal(true);
    await page.waitForSelector('[data-testid="nav-logout"], [data-testid="nav-menu-toggle"]');
    await page.close();
  });

  it('in Korean, on a phone: the same journey with Korean texts and a Korean e-mail', async () => {
    const page = await browser.newPage(PHONE);
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'ko-KR,ko;q=0.9' });
    const email = uniqueEmail('browser-ko');
    const mail = await signUp(page, email);
    expect(mail.subject + mail.text).to.match(/[\uac00-\ud7a3]/);
    expect(await page.$eval('html', (html) => html.lang)).to.equal('ko');
    await page.close();
  });

  it('shows a wrong code as a snackbar with the server message', async () => {
    const page = await browser.newPage();
    const email = uniqueEmail('browser-wrong');
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle0' });
    await step(page, 'check');
    await typeInto(page, 'login-email', email);
    await page.click('[data-testid="login-continue"]');
    await step(page, 'register');
    await typeInto(page, 'login-password', 'my-new-pass-1');
    await typeInto(page, 'login-confirm-password', 'my-new-pass-1');
    await page.click('[data-testid="register-submit"]');
    await step(page, 'verify');
    const mail = await harness().mailTo(email);
    const right = /\b(\d{6})\b/.exec(mail.text)![1];
    await typeInto(page, 'verification-code', right === '000000' ? '111111' : '000000');
    await page.click('[data-testid="verification-submit"]');
    const snackbar = await page.waitForSelector('[data-testid="snackbar"]', { visible: true });
    expect(await snackbar!.evaluate((el) => el.textContent)).to.contain('The code is not correct or has expired. 4 tries left.');
    await closeSnackbar(page);
    await page.close();
  });

  it('in Korean, a wrong password shows the Korean text of the server error code (the server answers in English)', async () => {
    const user = await createUser();
    // The browser itself speaks English (headless Chromium's default): only the app's own choice
    // (?lang=ko) makes it Korean, and the app translates the answer's code (features/language/errors).
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/login?lang=ko`, { waitUntil: 'networkidle0' });
    await step(page, 'check');
    await typeInto(page, 'login-email', user.email);
    await page.click('[data-testid="login-continue"]');
    await step(page, 'login');
    await typeInto(page, 'login-password', 'not-my-password-1');
    await page.click('[data-testid="login-submit"]');
    const snackbar = await page.waitForSelector('[data-testid="snackbar"]', { visible: true });
    expect(await snackbar!.evaluate((el) => el.textContent)).to.contain('이메일 또는 비밀번호가 올바르지 않습니다.');
    await page.close();
  });
});
