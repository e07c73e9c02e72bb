import { expect } from 'chai';
import type { HTTPRequest, Page } from 'puppeteer-core';
import type { Container } from 'inversify';
import { SystemClock, MailboxReaderService } from '@subshare/core';
import { createApp, listen } from '@subshare/http';
import { loginAs, type TestUser } from '../support/agent.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { containerWith } from '../support/containers.js';
import { startDovecot, type TestDovecot } from '../support/dovecot.js';
import { mailboxAccount, mailboxConfig, netflixLink, netflixMail, openAiMail, randomCode, subscribe } from '../support/mailboxes.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

/**
 * The panel's verification fetch in Chromium against a real Dovecot (spec sections 2, 4 and 9):
 * the household guide of a video platform fetches the verification link while the e-mail
 * arrives, and the AI-chat button fetches the login code.
 */
describe('browser: household links and login codes in the panel', function () {
  this.timeout(120_000);
  let dovecot: TestDovecot;
  let container: Container;
  let browser: BrowserSession;
  let server: { url: string; close(): Promise<void> };

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    dovecot = await startDovecot();
    container = containerWith({ config: mailboxConfig(dovecot.url), clock: new SystemClock() });
    server = await listen(createApp(container, { accessLog: false }), 0, '127.0.0.1');
    browser = await openBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await container?.get(MailboxReaderService).close();
    await dovecot?.destroy();
  });

  async function openPanel(user: TestUser, language: 'en' | 'ko' = 'en'): Promise<Page> {
    const page = await loggedInPage(browser, server.url, user, { language });
    await page.goto(`${server.url}/user/${user.id}`);
    await page.waitForSelector('[data-testid="panel-active-item"]', { visible: true });
    return page;
  }

  /** The verification calls the page makes, with their subscription ids. */
  function recordPolls(page: Page, path: string): Array<{ subscriptionId: string | null }> {
    const polls: Array<{ subscriptionId: string | null }> = [];
    page.on('request', (request: HTTPRequest) => {
      const url = new URL(request.url());
      if (url.pathname === path) polls.push({ subscriptionId: url.searchParams.get('subscriptionId') });
    });
    return polls;
  }

  it('a video platform: the buyer opens the household guide, the link arrives while polling, the link button appears', async () => {
    const mailbox = await mailboxAccount(container, dovecot, 0);
    const buyer = await loginAs('user', { app: createApp(container, { accessLog: false }) });
    const subscriptionId = await subscribe(container, buyer, mailbox.platform);
    const page = await openPanel(buyer);
    const polls = recordPolls(page, '/api/email/getnvlink');

    // No code button on a video platform; the guide starts closed.
    expect(await page.$('[data-testid="panel-code-request"]')).to.equal(null);
    expect(await page.$('[data-testid="panel-household-guide"]')).to.equal(null);
    await page.click('[data-testid="panel-household-toggle"]');
    await page.waitForSelector('[data-testid="panel-household-guide"]', { visible: true });
    const steps = await page.$$eval('[data-testid="panel-household-guide"] > li', (items) => items.length);
    expect(steps).to.equal(4);
    expect(await page.$('[data-testid="panel-household-link"]')).to.equal(null);

    // 'Get verification link': polling starts at once, with the progress bar and 'please wait'.
    const firstAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/email/getnvlink');
    await page.click('[data-testid="panel-household-fetch"]');
    await page.waitForSelector('[data-testid="panel-verification-polling"] [role="progressbar"]', { visible: true });
    expect(await page.$eval('[data-testid="panel-verification-wait"]', (el) => el.textContent)).to.contain('Please wait');
    await waitFor(() => polls.length >= 1, { what: 'the first poll' });
    expect(polls[0].subscriptionId).to.equal(String(subscriptionId));

    expect(await (await firstAnswer).json()).to.deep.equal({ link: null });

    // The e-mail lands after the first poll; the next poll brings the link. (Its timing, every
    // 10 s and at most 12, is held by test/unit/verification-polling.test.ts on driven time.)
    const link = netflixLink('travel');
    await dovecot.deliver(mailbox.email, netflixMail(mailbox.email, link));
    const button = await page.waitForSelector('[data-testid="panel-household-link"]', { visible: true, timeout: 20_000 });
    expect(await button!.evaluate((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')])).to.deep.equal([
      link,
      '_blank',
      'noopener noreferrer',
    ]);
    expect(polls.map((poll) => poll.subscriptionId)).to.deep.equal([String(subscriptionId), String(subscriptionId)]);
    // Polling stopped with the answer: the progress bar is gone.
    expect(await page.$('[data-testid="panel-verification-polling"]')).to.equal(null);
    await page.close();
  });

  it('an AI-chat platform: Request Verification Code shows the code once it arrives (Korean interface)', async () => {
    const mailbox = await mailboxAccount(container, dovecot, 8);
    const buyer = await loginAs('user', { app: createApp(container, { accessLog: false }) });
    await subscribe(container, buyer, mailbox.platform);
    const page = await openPanel(buyer, 'ko');
    const polls = recordPolls(page, '/api/email/getchgptcode');

    expect(await page.$('[data-testid="panel-household"]')).to.equal(null);
    const request = await page.waitForSelector('[data-testid="panel-code-request"]', { visible: true });
    expect(await request!.evaluate((el) => el.textContent)).to.equal('인증 코드 요청');
    const firstAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/email/getchgptcode');
    await request!.click();
    await page.waitForSelector('[data-testid="panel-verification-polling"]', { visible: true });
    expect(await page.$eval('[data-testid="panel-verification-wait"]', (el) => el.textContent)).to.contain('잠시 기다려 주세요');
    await waitFor(() => polls.length >= 1, { what: 'the first poll' });
    expect(await (await firstAnswer).json()).to.deep.equal({ code: null });

    const code = randomCode();
    await dovecot.deliver(mailbox.email, openAiMail(mailbox.email, code));
    await page.waitForSelector('[data-testid="panel-code-value"]', { visible: true, timeout: 20_000 });
    expect(await page.$eval('[data-testid="panel-code-value"]', (el) => el.textContent)).to.equal(code);
    expect(await page.$('[data-testid="panel-verification-polling"]')).to.equal(null);
    await page.close();
  });
});
