import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { SHIPPED_ALERT_RULES, AccountHealthFlow, AccountsService } from '@subshare/core';
import { loginAs, type TestUser } from '../support/agent.js';
import { alertMail, unknownPlatformMail } from '../support/alert-mails.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { harness } from '../support/harness.js';
import { subscribe } from '../support/mailboxes.js';
import { createAccount, createPlatform } from '../support/shop.js';
import { ensureWebBuilt } from '../support/web-build.js';

const ADMIN = 2;

/**
 * The admin's account-health list (issue 29) in English and Korean: a Netflix-like account broken
 * by its "password changed" mail comes first, with the mail and where its buyer went; staff set it
 * back to OK with a reason. Issue 33: staff mark an account broken with a reason after confirming,
 * read its recent mails with their verdicts, and make a rule from an unclassified one.
 */
describe('browser: the admin account-health list', function () {
  this.timeout(90_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let admin: TestUser;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
    admin = await loginAs('admin');
  });
  after(() => browser?.close());

  /** A broken account (its platform's mail, handed to the flow as the watcher does) whose buyer moved to a spare account. */
  async function brokenByMail(lang: 'en' | 'ko') {
    const { container, knex } = harness();
    const platform = await createPlatform({ slotsCount: 2 });
    await knex('platforms')
      .where({ id: platform.id })
      .update({ alert_rules: JSON.stringify(SHIPPED_ALERT_RULES.netflix) });
    const accounts = container.get(AccountsService);
    const mailbox = await accounts.createMailbox({ label: 'test' }, { platformId: platform.id });
    const account = await accounts.createAccount(
      { label: 'test' },
      { platformId: platform.id, email: mailbox.email, password: `pw-${randomUUID().slice(0, 8)}`, slotsCount: 2, femail: 'fw@example.test' },
    );
    const subscriptionId = await subscribe(container, await loginAs('user'), platform);
    const spare = await createAccount(platform.id, 2);
    const mail = alertMail('netflix', 'passwordChanged', mailbox.email, lang);
    const flow = container.get(AccountHealthFlow);
    await flow.heard(mailbox.id, [
      {
        uid: 1,
        uidValidity: '1',
        messageId: randomUUID(),
        from: 'info@account.netflix.com',
        subject: mail.subject,
        receivedAt: new Date(),
        recipients: [mailbox.email],
        text: mail.text ?? '',
        readForBuyers: false,
        // Handed to the flow directly: what the reader says of a mail that passed DMARC.
        authentication: 'verified',
      },
    ]);
    // No worker in this file: the move is this test's own.
    expect(await flow.moveBuyers(account.id)).to.deep.equal({ moved: 1, waiting: 0 });
    return { platform, account, spare, subscriptionId, subject: mail.subject };
  }

  for (const lang of ['en', 'ko'] as const) {
    it(`lists the broken account first with its mail and moved buyer, and sets it back to OK (${lang === 'en' ? 'English' : 'Korean'})`, async () => {
      const { platform, account, spare, subscriptionId, subject } = await brokenByMail(lang);
      const page = await loggedInPage(browser, baseUrl, admin, { role: ADMIN, language: lang });
      await page.goto(`${baseUrl}/jve/health`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="admin-health"][data-status="loaded"]');
      const card = `[data-testid="admin-health-account"][data-account-id="${account.id}"]`;
      await page.waitForSelector(card);
      // The platform is named in the staff member's language (issue 35: the Korean list showed English names).
      const heading = await page.$eval(`${card} [data-testid="admin-health-platform"]`, (element) => element.textContent ?? '');
      expect(heading.split(' · ')[0]).to.equal(lang === 'en' ? platform.name : `${platform.name} (KO)`);
      // Broken accounts come first.
      const states = await page.$$eval('[data-testid="admin-health-account"]', (items) => items.map((item) => item.getAttribute('data-state')));
      expect(states.indexOf('ok') === -1 || states.lastIndexOf('broken') < states.indexOf('ok')).to.equal(true);
      expect(await page.$eval(`${card} [data-testid="admin-health-state"]`, (element) => element.textContent)).to.equal(lang === 'en' ? 'Broken' : '고장');
      const cause = await page.$eval(`${card} [data-testid="admin-health-cause"]`, (element) => element.textContent ?? '');
      expect(cause)
        .to.contain(subject)
        .and.contain('info@account.netflix.com')
        .and.contain(lang === 'en' ? 'password changed' : '비밀번호 변경');
      const buyer = await page.$eval(`${card} [data-testid="admin-health-buyer"]`, (element) => [
        element.getAttribute('data-status'),
        element.textContent ?? '',
      ]);
      expect(buyer[0]).to.equal('moved');
      expect(buyer[1]).to.contain(`#${subscriptionId}`).and.contain(`#${spare.id}`);

      await page.type(`${card} [data-testid="admin-health-reason"]`, lang === 'en' ? 'password reset by us' : '비밀번호 재설정 완료');
      await page.click(`${card} [data-testid="admin-health-set-ok"]`);
      await page.waitForSelector(`${card}[data-state="ok"]`);
      expect(await page.$eval(`${card} [data-testid="admin-health-outcome"]`, (element) => element.textContent)).to.equal(
        lang === 'en' ? 'Done.' : '완료했습니다.',
      );
      const [audit] = await harness()
        .knex('audit_log')
        .where({ action: 'account.health.set', target_id: String(account.id) })
        .select('details');
      expect(audit.details).to.deep.include({ from: 'broken', to: 'ok' });
      await page.close();
    });
  }

  for (const lang of ['en', 'ko'] as const) {
    it(`lists an account's recent mails with verdicts, marks it broken after confirming, and makes a rule from an unclassified mail (${lang === 'en' ? 'English' : 'Korean'})`, async () => {
      const { container, knex } = harness();
      const platform = await createPlatform({ slotsCount: 2 });
      await knex('platforms')
        .where({ id: platform.id })
        .update({ alert_rules: JSON.stringify(SHIPPED_ALERT_RULES.netflix) });
      const accounts = container.get(AccountsService);
      const mailbox = await accounts.createMailbox({ label: 'test' }, { platformId: platform.id });
      const account = await accounts.createAccount(
        { label: 'test' },
        { platformId: platform.id, email: mailbox.email, password: `pw-${randomUUID().slice(0, 8)}`, slotsCount: 2, femail: 'fw@example.test' },
      );
      await createAccount(platform.id, 2); // a spare: the platform stays on sale
      const unknown = unknownPlatformMail('netflix', mailbox.email);
      const signIn = alertMail('netflix', 'newSignIn', mailbox.email, lang);
      const flow = container.get(AccountHealthFlow);
      const heard = (mail: typeof unknown, uid: number) => ({
        uid,
        uidValidity: '1',
        messageId: randomUUID(),
        from: 'info@account.netflix.com',
        subject: mail.subject,
        receivedAt: new Date(Date.now() - (3 - uid) * 60_000),
        recipients: [mailbox.email],
        text: mail.text ?? '',
        readForBuyers: false,
        authentication: 'verified' as const,
      });
      await flow.heard(mailbox.id, [heard(unknown, 1), heard(signIn, 2)]);

      const page = await loggedInPage(browser, baseUrl, admin, { role: ADMIN, language: lang });
      await page.goto(`${baseUrl}/jve/health`, { waitUntil: 'networkidle0' });
      const card = `[data-testid="admin-health-account"][data-account-id="${account.id}"]`;
      await page.waitForSelector(`${card}[data-state="attention"]`);
      const mails = await page.$$eval(`${card} [data-testid="admin-health-mail"]`, (items) =>
        items.map((item) => [item.getAttribute('data-action'), item.getAttribute('data-authentication'), item.textContent ?? '']),
      );
      expect(mails.map(([action, authentication]) => [action, authentication])).to.deep.equal([
        ['attention', 'verified'],
        ['unclassified', 'verified'],
      ]);
      expect(mails[0][2])
        .to.contain(signIn.subject)
        .and.contain(lang === 'en' ? 'authenticated' : '인증됨')
        .and.contain(lang === 'en' ? 'marked attention' : '확인 필요로 표시');
      expect(mails[1][2])
        .to.contain(unknown.subject)
        .and.contain(lang === 'en' ? 'unclassified' : '미분류');

      // Mark broken: a reason, then a confirmation; nothing changes before it.
      await page.type(`${card} [data-testid="admin-health-reason"]`, lang === 'en' ? 'owner changed the password' : '소유자가 비밀번호 변경');
      await page.click(`${card} [data-testid="admin-health-set-broken"]`);
      const question = await page.waitForSelector(`${card} [data-testid="admin-health-confirm-broken"]`);
      expect(await question!.evaluate((element) => element.textContent)).to.contain(`#${account.id}`);
      expect((await knex('platform_accounts').where({ id: account.id }).first('health')).health).to.equal('attention');
      await page.click(`${card} [data-testid="admin-health-confirm-broken-yes"]`);
      await page.waitForSelector(`${card}[data-state="broken"]`);
      const [audit] = await knex('audit_log')
        .where({ action: 'account.health.set', target_id: String(account.id) })
        .select('details');
      expect(audit.details).to.deep.include({ from: 'attention', to: 'broken' });

      // Make a rule from the unclassified mail: the catalog editor opens with it prefilled.
      await page.click(`${card} [data-testid="admin-health-make-rule"]`);
      await page.waitForSelector(`[data-testid="admin-catalog-editor"][data-status="loaded"][data-platform-id="${platform.id}"]`);
      const last = SHIPPED_ALERT_RULES.netflix.rules.length;
      const value = (testId: string) => page.$eval(`[data-testid="${testId}"]`, (element) => (element as HTMLInputElement).value);
      expect(await value(`admin-catalog-alertRules-${last}-subject`)).to.equal(unknown.subject);
      expect(await value(`admin-catalog-alertRules-${last}-kind`)).to.equal('ignore');
      expect(await value('admin-catalog-alertSenders')).to.equal('netflix.com');
      await page.close();
    });
  }
});
