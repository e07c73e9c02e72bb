import { expect } from 'chai';
import { freePort, type AppConfig } from '@subshare/core';
import { createApp, listen } from '@subshare/http';
import { loginAs } from '../support/agent.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { containerWith } from '../support/containers.js';
import { harness } from '../support/harness.js';
import { ensureWebBuilt } from '../support/web-build.js';

/**
 * Stripe keys without SMTP_URL (issue 34, item 5): staff see on /jve, in English and Korean, that
 * renewal reminders are not delivered and no automatic renewal will be charged. The call itself:
 * test/e2e-api/renewal-reminders-undelivered.test.ts.
 */
describe('browser: the dashboard warns that renewals will not be charged without SMTP_URL', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let server: { close(): Promise<void> } | undefined;

  before(async function () {
    this.timeout(300_000);
    ensureWebBuilt();
    const port = await freePort();
    const config: AppConfig = {
      ...harness().config,
      publicUrl: `http://127.0.0.1:${port}`,
      stripe: { secretKey: 'sk_test_reminders_warning', webhookSecret: 'whsec_reminders_warning' },
      mail: { ...harness().config.mail, smtpUrl: undefined },
    };
    const started = await listen(createApp(containerWith({ config }), { accessLog: false }), port, '127.0.0.1');
    server = started;
    baseUrl = started.url;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const [language, warning] of [
    ['en', 'SMTP_URL is not set: renewal reminders are not delivered, so no automatic renewal will be charged. Set SMTP_URL and restart the shop.'],
    [
      'ko',
      'SMTP_URL이 설정되지 않아 자동 연장 안내 이메일이 발송되지 않으므로, 자동 연장 결제가 이루어지지 않습니다. SMTP_URL을 설정하고 쇼핑몰을 다시 시작해 주세요.',
    ],
  ] as const) {
    it(`${language}: the warning above the renewal figures`, async () => {
      const admin = await loginAs('admin');
      const page = await loggedInPage(browser, baseUrl, admin, { language, role: 2 });
      await page.goto(`${baseUrl}/jve`);
      await page.waitForSelector('[data-testid="admin-home"][data-status="loaded"]');
      const shown = await page.waitForSelector('[data-testid="admin-renewals-undelivered"]', { visible: true });
      expect(await shown!.evaluate((element) => [element.getAttribute('role'), (element.textContent ?? '').trim()])).to.deep.equal(['alert', warning]);
      await page.close();
    });
  }
});
