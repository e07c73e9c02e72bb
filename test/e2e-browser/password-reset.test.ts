import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { api, createUser } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { openBrowser, PHONE, DESKTOP, type BrowserSession, closeSnackbar } from '../support/browser.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

/**
 * A buyer who forgot the password: "Forgot password?" on the password step, the code read from
 * the e-mail that arrived by SMTP, a new password, logged in; afterwards the new password logs in
 * and the old one is refused, and the session held elsewhere has ended.
 */
describe('browser: password reset with an e-mail code', function () {
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
  const heading = (page: Page) => page.$eval('[data-testid="page-login"] h1', (h1) => h1.textContent ?? '');

  async function typeInto(page: Page, testId: string, text: string) {
    const field = await page.waitForSelector(`[data-testid="${testId}"]`, { visible: true });
    await field!.click({ count: 3 });
    await field!.type(text);
  }

  async function openLogin(language: 'en' | 'ko', viewport: { width: number; height: number }) {
    const page = await browser.newPage(viewport);
    await page.setExtraHTTPHeaders({ 'Accept-Language': language === 'ko' ? 'ko-KR,ko;q=0.9' : 'en-US,en;q=0.9' });
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle0' });
    await step(page, 'check');
    return page;
  }

  async function toPasswordStep(page: Page, email: string) {
    await typeInto(page, 'login-email', email);
    await page.click('[data-testid="login-continue"]');
    await step(page, 'login');
  }

  async function snackbarText(page: Page) {
    const snackbar = await page.waitForSelector('[data-testid="snackbar"]', { visible: true });
    return snackbar!.evaluate((el) => el.textContent ?? '');
  }

  const cases = [
    {
      language: 'en' as const,
      viewport: DESKTOP,
      texts: { forgot: 'Forgot password?', title: 'Reset your password', resetTitle: 'Choose a new password', done: 'Your password is changed.' },
      refused: 'The e-mail or password is not correct.',
    },
    {
      language: 'ko' as const,
      viewport: PHONE,
      texts: { forgot: '비밀번호를 잊으셨나요?', title: '비밀번호 재설정', resetTitle: '새 비밀번호 정하기', done: '비밀번호가 변경되었습니다.' },
      refused: '이메일 또는 비밀번호가 올바르지 않습니다.',
    },
  ];

  for (const { language, viewport, texts, refused } of cases) {
    it(`in ${language === 'en' ? 'English' : 'Korean'}: forgot password → code from the e-mail → new password → logged in; then only the new password works`, async () => {
      const user = await createUser({ languageId: language === 'ko' ? 2 : 1 });
      const elsewhere = (await api().post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(200)).body.token;
      const newPassword = `reset-${language}-pass-1`;

      const page = await openLogin(language, viewport);
      await toPasswordStep(page, user.email);
      const forgot = await page.waitForSelector('[data-testid="login-forgot"]', { visible: true });
      expect(await forgot!.evaluate((el) => el.textContent)).to.equal(texts.forgot);
      await forgot!.click();

      await step(page, 'forgot');
      expect(await heading(page)).to.equal(texts.title);
      // The e-mail typed at login is already there.
      expect(await page.$eval('[data-testid="forgot-email"]', (input) => (input as HTMLInputElement).value)).to.equal(user.email);
      await page.click('[data-testid="forgot-submit"]');

      await step(page, 'reset');
      expect(await heading(page)).to.equal(texts.resetTitle);
      const mail = await harness().mailTo(user.email);
      if (language === 'ko') expect(mail.subject + mail.text).to.match(/비밀번호 재설정/);
      else expect(mail.subject).to.contain('password reset code');
      const code = /\b(\d{6})\b/.exec(mail.text)![1];
      await closeSnackbar(page);

      await typeInto(page, 'reset-code', code);
      expect(await page.$eval('[data-testid="reset-code-counter"]', (el) => el.textContent?.replace(/\s/g, ''))).to.equal('6/6');
      await typeInto(page, 'reset-password', newPassword);
      await typeInto(page, 'reset-confirm-password', `${newPassword}x`);
      await page.click('[data-testid="reset-submit"]');
      // The passwords differ: the form says so and sends nothing.
      await page.waitForSelector('[data-testid="field-error-confirmPassword"]', { visible: true });
      await typeInto(page, 'reset-confirm-password', newPassword);
      await page.click('[data-testid="reset-submit"]');

      expect(await snackbarText(page)).to.contain(texts.done);
      await page.waitForFunction(() => location.pathname === '/');
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('subshare.user') ?? 'null'));
      expect(stored).to.include({ id: user.id, isEmailVerified: true });
      await page.waitForSelector('[data-testid="nav-logout"], [data-testid="nav-menu-toggle"]');
      await page.close();

      // The session held elsewhere has ended.
      await api().get('/api/user/getuserpanel').query({ id: user.id }).set('Authorization', `Bearer ${elsewhere}`).expect(401);

      // Another browser: the old password is refused, the new one logs in.
      const again = await openLogin(language, viewport);
      await toPasswordStep(again, user.email);
      await typeInto(again, 'login-password', user.password);
      await again.click('[data-testid="login-submit"]');
      expect(await snackbarText(again)).to.contain(refused);
      await closeSnackbar(again);
      await typeInto(again, 'login-password', newPassword);
      await again.click('[data-testid="login-submit"]');
      await again.waitForFunction(() => location.pathname === '/');
      expect(await again.evaluate(() => JSON.parse(localStorage.getItem('subshare.user') ?? 'null')?.id)).to.equal(user.id);
      await again.close();
    });
  }
});
