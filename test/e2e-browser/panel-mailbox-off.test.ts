import { expect } from 'chai';
import type { HTTPRequest, Page } from 'puppeteer-core';
import type { Container } from 'inversify';
import { SystemClock } from '@subshare/core';
import { createApp, listen } from '@subshare/http';
import { loginAs, type TestUser } from '../support/agent.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { containerWith } from '../support/containers.js';
import type { TestDovecot } from '../support/dovecot.js';
import { mailboxAccount, subscribe } from '../support/mailboxes.js';
import { ensureWebBuilt } from '../support/web-build.js';

/**
 * A shop without MAILBOX_IMAP_URL (issue 14): the household-link and login-code buttons used to
 * poll for two minutes against an error before saying anything. Now the first answer is final:
 * the panel says at once that the mailbox cannot be read and to contact support (in the buyer's
 * language), staff also see which setting is missing, and no second poll is made. "Try again"
 * asks once more and says so (issue 35).
 */
describe('browser: the panel when no mailbox server is configured', function () {
  this.timeout(120_000);
  let container: Container;
  let browser: BrowserSession;
  let server: { url: string; close(): Promise<void> };
  // No IMAP server at all: the mailboxes exist only in the shop's records.
  const noServer = { addUser: () => undefined } as unknown as TestDovecot;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    container = containerWith({ clock: new SystemClock() });
    server = await listen(createApp(container, { accessLog: false }), 0, '127.0.0.1');
    browser = await openBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function holder(category: number): Promise<TestUser> {
    const mailbox = await mailboxAccount(container, noServer, category);
    const buyer = await loginAs('user', { app: createApp(container, { accessLog: false }) });
    await subscribe(container, buyer, mailbox.platform);
    return buyer;
  }

  async function openPanel(
    viewer: TestUser,
    ownerId: number,
    options: { language?: 'en' | 'ko'; role?: number } = {},
  ): Promise<{ page: Page; polls: string[] }> {
    const page = await loggedInPage(browser, server.url, viewer, options);
    const polls: string[] = [];
    page.on('request', (request: HTTPRequest) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/email/getnvlink' || path === '/api/email/getchgptcode') polls.push(path);
    });
    await page.goto(`${server.url}/user/${ownerId}`);
    await page.waitForSelector('[data-testid="panel-active-item"]', { visible: true });
    return { page, polls };
  }

  const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent);

  it('a buyer presses Request Verification Code: told at once that the mailbox cannot be read, and to contact support', async () => {
    const buyer = await holder(8);
    const { page, polls } = await openPanel(buyer, buyer.id);
    await page.click('[data-testid="panel-code-request"]');
    const failed = await page.waitForSelector('[data-testid="panel-verification-failed"]', { visible: true, timeout: 5_000 });
    expect(await failed!.evaluate((element) => [element.getAttribute('role'), element.getAttribute('data-code')])).to.deep.equal([
      'alert',
      'mailbox_reading_off',
    ]);
    expect(await text(page, '[data-testid="panel-verification-failed-message"]')).to.equal(
      "This shop cannot read the accounts' mailboxes at the moment, so the link or code cannot be fetched. Please contact support.",
    );
    // Buyers are not shown settings; they get the way to support.
    expect(await page.$('[data-testid="panel-verification-staff-note"]')).to.equal(null);
    const support = await page.$eval('[data-testid="panel-verification-support"]', (a) => [a.getAttribute('href'), a.textContent]);
    expect(support).to.deep.equal(['/support', 'Contact support']);
    // Not polling: no progress bar, the button is usable again, and no second request follows.
    expect(await page.$('[data-testid="panel-verification-polling"]')).to.equal(null);
    expect(await page.$eval('[data-testid="panel-code-request"]', (button) => (button as HTMLButtonElement).disabled)).to.equal(false);
    expect(polls).to.deep.equal(['/api/email/getchgptcode']);

    // "Try again" asks once more (issue 35: it seemed to do nothing): a second request, and the
    // same answer now says it was asked again, with how many times.
    expect(await page.$('[data-testid="panel-verification-retried"]')).to.equal(null);
    await page.click('[data-testid="panel-verification-retry"]');
    await page.waitForSelector('[data-testid="panel-verification-failed"][data-retries="1"]', { visible: true });
    expect(await text(page, '[data-testid="panel-verification-retried"]')).to.equal('Asked again (1×): the answer is the same.');
    expect(await text(page, '[data-testid="panel-verification-failed-message"]')).to.equal(
      "This shop cannot read the accounts' mailboxes at the moment, so the link or code cannot be fetched. Please contact support.",
    );
    expect(polls).to.deep.equal(['/api/email/getchgptcode', '/api/email/getchgptcode']);
    await page.close();
  });

  it('in Korean, the household guide says it at once too, with the Korean text of the code', async () => {
    const buyer = await holder(0);
    const { page, polls } = await openPanel(buyer, buyer.id, { language: 'ko' });
    await page.click('[data-testid="panel-household-toggle"]');
    await page.click('[data-testid="panel-household-fetch"]');
    await page.waitForSelector('[data-testid="panel-verification-failed"]', { visible: true, timeout: 5_000 });
    expect(await text(page, '[data-testid="panel-verification-failed-message"]')).to.equal(
      '지금은 계정 메일함을 확인할 수 없어 인증 링크나 코드를 가져올 수 없습니다. 고객센터에 문의해 주세요.',
    );
    expect(await text(page, '[data-testid="panel-verification-support"]')).to.equal('고객센터 문의');
    expect(polls).to.deep.equal(['/api/email/getnvlink']);
    await page.click('[data-testid="panel-verification-retry"]');
    await page.waitForSelector('[data-testid="panel-verification-failed"][data-retries="1"]', { visible: true });
    await page.click('[data-testid="panel-verification-retry"]');
    await page.waitForSelector('[data-testid="panel-verification-failed"][data-retries="2"]', { visible: true });
    expect(await text(page, '[data-testid="panel-verification-retried"]')).to.equal('다시 확인했습니다 (2회): 결과가 같습니다.');
    expect(polls).to.deep.equal(['/api/email/getnvlink', '/api/email/getnvlink', '/api/email/getnvlink']);
    await page.close();
  });

  it("staff looking at a buyer's panel also see which setting is missing", async () => {
    const buyer = await holder(8);
    const admin = await loginAs('admin', { app: createApp(container, { accessLog: false }) });
    const { page } = await openPanel(admin, buyer.id, { role: 2, language: 'ko' });
    await page.click('[data-testid="panel-code-request"]');
    await page.waitForSelector('[data-testid="panel-verification-failed"]', { visible: true, timeout: 5_000 });
    expect(await text(page, '[data-testid="panel-verification-staff-note"]')).to.contain('MAILBOX_IMAP_URL is not set');
    await page.close();
  });
});
