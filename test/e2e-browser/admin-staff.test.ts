import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { api, createUser, loginAs, uniqueEmail, type TestUser } from '../support/agent.js';
import { closeSnackbar, loggedInPage, openBrowser, PHONE, snackbarShown, type BrowserSession } from '../support/browser.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';
import { ensureWebBuilt } from '../support/web-build.js';

useWorker();

const ROLE = { user: 0, moderator: 1, admin: 2 } as const;

/**
 * The staff page, the audit log and the outbox in Chromium (issue 15): an admin promotes a user
 * to moderator and demotes them, reads both changes at the top of the audit log filtered by
 * action (a credential reveal stands out), opens the outbox, previews a code e-mail (the code
 * masked) and retries a failed e-mail, which arrives once; a moderator sees the outbox only; all
 * three screens fit a 390 px phone.
 */
describe('browser: staff roles, the audit log and the outbox', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let admin: TestUser;
  const knex = () => harness().knex;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
    admin = await loginAs('admin');
  });
  after(async () => {
    await browser?.close();
  });

  const clean = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  const texts = (page: Page, selector: string) =>
    page.$$eval(selector, (elements) => elements.map((element) => element.textContent)).then((all) => all.map(clean));

  async function settled(page: Page) {
    await page.waitForSelector('[data-testid="loading-overlay"]', { hidden: true });
  }
  async function click(page: Page, selector: string) {
    await settled(page);
    const element = await page.waitForSelector(selector, { visible: true });
    await element!.click();
  }
  async function snackbar(page: Page, message: string) {
    await snackbarShown(page, message);
    await closeSnackbar(page);
  }
  const documentWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

  it('an admin promotes a user to moderator and demotes them, then reads both changes at the top of the audit log', async () => {
    const user = await createUser();
    const page = await loggedInPage(browser, baseUrl, admin, { role: ROLE.admin });
    await page.goto(`${baseUrl}/jve`, { waitUntil: 'networkidle0' });
    await click(page, '[data-testid="admin-menu-staff"]');
    await page.waitForSelector('[data-testid="admin-staff"][data-status="loaded"]');
    expect(await texts(page, '[data-testid="admin-staff-row"] [data-testid="admin-staff-email-link"]')).to.include(admin.email);

    await click(page, '[data-testid="admin-staff-email"]');
    await page.type('[data-testid="admin-staff-email"]', user.email);
    await page.select('[data-testid="admin-staff-role"]', '1');
    await click(page, '[data-testid="admin-staff-submit"]');
    await snackbar(page, `${user.email} is now Moderator. It takes effect on their next request.`);
    const row = `[data-testid="admin-staff-row"][data-user-id="${user.id}"]`;
    await page.waitForSelector(`${row}[data-role="1"]`);
    expect((await knex()('users').where({ id: user.id }).first()).role).to.equal(ROLE.moderator);

    await click(page, `${row} [data-testid="admin-staff-demote"]`);
    // Taking a role away asks first, naming the user (issue 24).
    expect(clean(await (await page.waitForSelector('[data-testid="admin-confirm-text"]'))!.evaluate((element) => element.textContent))).to.contain(user.email);
    await click(page, '[data-testid="admin-confirm-ok"]');
    await snackbar(page, `${user.email} is now User (no staff role). It takes effect on their next request.`);
    await page.waitForSelector(row, { hidden: true });
    expect((await knex()('users').where({ id: user.id }).first()).role).to.equal(ROLE.user);

    // The last admin cannot be demoted: the server's message shows beside the form.
    await knex()('users').where({ role: ROLE.admin }).whereNot({ id: admin.id }).update({ role: ROLE.moderator });
    await click(page, `[data-testid="admin-staff-row"][data-user-id="${admin.id}"] [data-testid="admin-staff-demote"]`);
    await click(page, '[data-testid="admin-confirm-ok"]');
    await page.waitForSelector('[data-testid="admin-staff-error"]');
    expect(clean(await page.$eval('[data-testid="admin-staff-error"]', (element) => element.textContent))).to.equal(
      `${admin.email} is the last admin: make someone else admin first.`,
    );
    await closeSnackbar(page);

    // A credential reveal, recorded as the user page records one.
    await knex()('audit_log').insert({
      actor_user_id: admin.id,
      actor_label: admin.email,
      action: 'credentials.reveal',
      target_type: 'user',
      target_id: String(user.id),
      details: JSON.stringify({ accountIds: [1] }),
    });

    await click(page, '[data-testid="admin-menu-audit"]');
    await page.waitForSelector('[data-testid="admin-audit"][data-status="loaded"]');
    await page.select('[data-testid="admin-audit-action"]', 'user.role');
    await click(page, '[data-testid="admin-audit-apply"]');
    await page.waitForSelector('[data-testid="admin-audit"][data-filter="action=user.role"][data-status="loaded"]');
    // Readable details, a line each (issue 24); the recorded JSON stays as the tooltip.
    const details = await page.$$eval('[data-testid="admin-audit-row"] [data-testid="admin-audit-details"]', (all) =>
      all.map((element) => ({
        lines: [...element.querySelectorAll('[data-testid="admin-audit-detail"]')].map((line) => line.textContent!.replace(/\s+/g, ' ').trim()),
        json: JSON.parse(element.getAttribute('title')!),
      })),
    );
    expect(details.slice(0, 2)).to.deep.equal([
      { lines: [`E-mail: ${user.email}`, 'Role before: Moderator', 'Role now: User'], json: { email: user.email, before: 1, after: 0 } },
      { lines: [`E-mail: ${user.email}`, 'Role before: User', 'Role now: Moderator'], json: { email: user.email, before: 0, after: 1 } },
    ]);
    expect(await texts(page, '[data-testid="admin-audit-row"] [data-testid="admin-audit-action-label"]')).to.include('Role changed');
    expect(await texts(page, '[data-testid="admin-audit-row"] [data-testid="admin-audit-action"]')).to.satisfy((all: string[]) =>
      all.every((action) => action === 'user.role'),
    );
    // Each row links to the user it names.
    const link = await page.$eval('[data-testid="admin-audit-row"] [data-testid="admin-audit-target-link"]', (element) => element.getAttribute('href'));
    expect(link).to.equal(`/jve/user/${user.id}`);

    // The reveal stands out: a red row with the words, not colour alone.
    await page.select('[data-testid="admin-audit-action"]', 'credentials.reveal');
    await click(page, '[data-testid="admin-audit-apply"]');
    await page.waitForSelector('[data-testid="admin-audit"][data-filter="action=credentials.reveal"][data-status="loaded"]');
    const reveal = '[data-testid="admin-audit-row"][data-reveal="true"]';
    await page.waitForSelector(reveal);
    expect(clean(await page.$eval(`${reveal} [data-testid="admin-audit-reveal"]`, (element) => element.textContent))).to.equal('Secret revealed');
    await page.close();
  });

  it('an admin opens the outbox, previews a code e-mail with the code masked and retries a failed e-mail, which arrives once', async () => {
    // A sign-up code e-mail, delivered (the buyer has the code).
    const buyer = await loginAs('user', { verified: false });
    await api().post('/api/user/sendverificationcode').set(buyer.auth).send({ email: buyer.email }).expect(200);
    const code = /(?<!\d)(\d{6})(?!\d)/.exec((await harness().mailTo(buyer.email)).text)![1];
    const codeEmail = await knex()('email_outbox').where({ user_id: buyer.id }).first();
    // A failed e-mail to another address.
    const to = uniqueEmail('failed');
    const [failed] = await knex()('email_outbox')
      .insert({
        kind: 0,
        to_address: to,
        language_id: 1,
        subject: 'Welcome to subshare',
        html: '<p>Welcome</p>',
        text: 'Welcome',
        status: 'failed',
        attempts: 3,
        last_error: '421 too busy',
      })
      .returning('id');

    const page = await loggedInPage(browser, baseUrl, admin, { role: ROLE.admin });
    await page.goto(`${baseUrl}/jve`, { waitUntil: 'networkidle0' });
    await click(page, '[data-testid="admin-menu-outbox"]');
    await page.waitForSelector('[data-testid="admin-outbox"][data-status="loaded"]');
    const codeRow = `[data-testid="admin-outbox-row"][data-email-id="${codeEmail.id}"]`;
    await page.waitForSelector(codeRow);
    expect(clean(await page.$eval(`${codeRow} [data-testid="admin-outbox-to"]`, (element) => element.textContent))).to.equal(buyer.email);

    await click(page, `${codeRow} [data-testid="admin-outbox-preview"]`);
    await page.waitForSelector(`[data-testid="admin-outbox-preview-panel"][data-email-id="${codeEmail.id}"][data-status="loaded"]`);
    const preview = clean(await page.$eval('[data-testid="admin-outbox-preview-panel"]', (element) => element.textContent));
    expect(preview).to.contain('••••••');
    expect(preview, 'the code in the preview').to.not.contain(code);
    expect(await page.content(), 'the code anywhere on the page').to.not.contain(code);

    const failedRow = `[data-testid="admin-outbox-row"][data-email-id="${failed.id}"]`;
    expect(clean(await page.$eval(`${failedRow} [data-testid="admin-outbox-state"]`, (element) => element.textContent))).to.equal('Failed');
    expect(clean(await page.$eval(`${failedRow} [data-testid="admin-outbox-error"]`, (element) => element.textContent))).to.equal('421 too busy');
    // A double click: the e-mail is queued once and arrives once.
    await settled(page);
    await (await page.waitForSelector(`${failedRow} [data-testid="admin-outbox-retry"]`))!.click({ count: 2 });
    await page.waitForSelector(`${failedRow}:not([data-status="failed"])`);
    await harness().mailTo(to);
    await waitFor(async () => (await knex()('email_outbox').where({ id: failed.id }).first()).status === 'sent', { what: 'the retried e-mail sent' });
    expect(harness().smtp.messagesTo(to)).to.have.length(1);
    expect(await knex()('audit_log').where({ action: 'email.retry', target_id: String(failed.id) })).to.have.length(1);
    await page.close();
  });

  it('a moderator sees the outbox but neither the staff page nor the audit log; the three screens fit a 390 px phone', async () => {
    const moderator = await loginAs('moderator');
    const page = await loggedInPage(browser, baseUrl, moderator, { role: ROLE.moderator, viewport: PHONE });
    await page.goto(`${baseUrl}/jve/outbox`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="admin-outbox"][data-status="loaded"]');
    expect(await documentWidth(page), 'outbox').to.be.at.most(PHONE.width);
    await click(page, '[data-testid="admin-menu-toggle"]');
    await page.waitForSelector('[data-testid="admin-menu-outbox"]');
    expect(await page.$('[data-testid="admin-menu-staff"]')).to.equal(null);
    expect(await page.$('[data-testid="admin-menu-audit"]')).to.equal(null);
    await page.goto(`${baseUrl}/jve/staff`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="admin-staff-admins-only"]');
    await page.close();

    const phone = await loggedInPage(browser, baseUrl, admin, { role: ROLE.admin, viewport: PHONE });
    for (const [path, testId] of [
      ['/jve/staff', 'admin-staff'],
      ['/jve/audit', 'admin-audit'],
      ['/jve/outbox', 'admin-outbox'],
    ] as const) {
      await phone.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle0' });
      await phone.waitForSelector(`[data-testid="${testId}"][data-status="loaded"]`);
      expect(await documentWidth(phone), path).to.be.at.most(PHONE.width);
    }
    await phone.close();
  });
});
