import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { SHIPPED_ALERT_RULES, AccountHealthFlow, AccountsService, type HeardMail } from '@subshare/core';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { alertMail } from '../support/alert-mails.js';
import { axeViolations } from '../support/axe-suite.js';
import { loggedInPage, openBrowser, type BrowserSession } from '../support/browser.js';
import { harness } from '../support/harness.js';
import { subscribe } from '../support/mailboxes.js';
import { createPlatform, refreshCatalog, type TestPlatform } from '../support/shop.js';
import { ensureWebBuilt } from '../support/web-build.js';

const ADMIN = 2;

/**
 * "It doesn't work" (issue 33) in English and Korean: the buyer reports from the panel and sees
 * the self-help at once; once two buyers reported, the account is being repaired and its old
 * login details lose their Copy buttons and say they may not work. Staff see the platform-wide
 * incident banner and a report they confirm in /jve/health.
 */
describe('browser: problem reports in the panel and in account health', function () {
  this.timeout(120_000);
  let browser: BrowserSession;
  let baseUrl: string;
  let admin: TestUser;
  const knex = () => harness().knex;
  const flow = () => harness().container.get(AccountHealthFlow);

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt();
    baseUrl = await harness().baseUrl();
    browser = await openBrowser();
    admin = await loginAs('admin');
  });
  after(() => browser?.close());

  /** A video platform with Netflix's rules and `count` accounts of `slots` slots, each on its own mailbox. */
  async function platformWith(
    count: number,
    slots: number,
  ): Promise<{ platform: TestPlatform; accounts: Array<{ id: number; email: string; mailboxId: number }> }> {
    const platform = await createPlatform({ category: 0, slotsCount: slots });
    await knex()('platforms')
      .where({ id: platform.id })
      .update({ alert_rules: JSON.stringify(SHIPPED_ALERT_RULES.netflix) });
    refreshCatalog();
    const service = harness().container.get(AccountsService);
    const accounts = [];
    for (let n = 0; n < count; n += 1) {
      const mailbox = await service.createMailbox({ label: 'test' }, { platformId: platform.id });
      const account = await service.createAccount(
        { label: 'test' },
        { platformId: platform.id, email: mailbox.email, password: `pw-${randomUUID().slice(0, 8)}`, slotsCount: slots, femail: `fw-${n}@example.test` },
      );
      accounts.push({ id: account.id, email: mailbox.email, mailboxId: mailbox.id });
    }
    // No worker in this file: the accounts' `account-created` jobs never run, and moves are the tests' own.
    return { platform, accounts };
  }

  const texts = {
    en: { open: "It doesn't work", checking: 'We are checking the account now', household: 'confirm your household', mayNotWork: 'may not work' },
    ko: { open: '작동하지 않아요', checking: '지금 계정을 확인하고 있습니다', household: '가구 확인', mayNotWork: '작동하지 않을 수 있' },
  };

  for (const lang of ['en', 'ko'] as const) {
    it(`the buyer reports, sees self-help at once; being repaired, the old login has no Copy buttons (${lang === 'en' ? 'English' : 'Korean'})`, async () => {
      const { platform, accounts } = await platformWith(1, 2);
      const [account] = accounts;
      const buyer = await loginAs('user');
      const subscriptionId = await subscribe(harness().container, buyer, platform);
      const neighbour = await loginAs('user');
      const neighbourSubscription = await subscribe(harness().container, neighbour, platform);

      const page = await loggedInPage(browser, baseUrl, buyer, { language: lang });
      // axe-core is added as an inline script, which the shop's CSP refuses: bypassed before the page loads.
      await page.setBypassCSP(true);
      await page.goto(`${baseUrl}/user/${buyer.id}`, { waitUntil: 'networkidle0' });
      const item = '[data-testid="panel-active-item"]';
      await page.waitForSelector(`${item} [data-testid="panel-copy-username"]`);
      await page.waitForSelector(`${item} [data-testid="panel-problem-open"]`);
      expect(await page.$eval(`${item} [data-testid="panel-problem-open"]`, (element) => element.textContent)).to.equal(texts[lang].open);
      await page.click(`${item} [data-testid="panel-problem-open"]`);
      // Sent without a kind: the form says what is missing and nothing is sent.
      await page.click('[data-testid="panel-problem-send"]');
      await page.waitForSelector('[data-testid="field-error-kind"]');
      expect(await knex()('account_problem_reports').where({ subscription_id: subscriptionId }).count('* as n').first()).to.deep.equal({ n: 0 });
      // The open form, with its error, is accessible (axe-core, as every page is: issue 24).
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.select('[data-testid="panel-problem-kind"]', 'wrongPassword');
      await page.type('[data-testid="panel-problem-note"]', lang === 'en' ? 'It says the password is wrong' : '비밀번호가 틀리다고 나와요');
      await page.click('[data-testid="panel-problem-send"]');
      await page.waitForSelector('[data-testid="panel-problem-help"][data-help="householdLink"]');
      const help = await page.$eval('[data-testid="panel-problem-help"]', (element) => element.textContent ?? '');
      expect(help).to.contain(texts[lang].checking).and.contain(account.email).and.contain(texts[lang].household);
      expect(await axeViolations(page)).to.deep.equal([]);
      const [stored] = await knex()('account_problem_reports').where({ subscription_id: subscriptionId }).select('kind', 'note');
      expect(stored.kind).to.equal('wrongPassword');
      expect((await knex()('platform_accounts').where({ id: account.id }).first('health')).health).to.equal('attention');

      // A second buyer reports: broken; no other account has room, so both wait ("being repaired").
      await api().post('/api/subscribe/reportproblem').set(neighbour.auth).send({ subscriptionId: neighbourSubscription, kind: 'cantLogIn' }).expect(200);
      expect(await flow().moveBuyers(account.id)).to.deep.equal({ moved: 0, waiting: 2 });
      await page.reload({ waitUntil: 'networkidle0' });
      await page.waitForSelector(`${item} [data-testid="panel-health"][data-health="repairing"]`);
      expect(await page.$(`${item} [data-testid="panel-copy-username"]`)).to.equal(null);
      expect(await page.$(`${item} [data-testid="panel-copy-password"]`)).to.equal(null);
      expect(await page.$eval(`${item} [data-testid="panel-credentials-may-not-work"]`, (element) => element.textContent ?? '')).to.contain(
        texts[lang].mayNotWork,
      );
      await page.close();
    });

    it(`staff see the platform-wide incident and confirm a buyer's report (${lang === 'en' ? 'English' : 'Korean'})`, async () => {
      const { platform, accounts } = await platformWith(4, 1);
      // Three verified "password changed" mails: the third break is held (default allowance 2).
      for (const account of accounts.slice(0, 3)) {
        const mail = alertMail('netflix', 'passwordChanged', account.email, lang);
        const heard: HeardMail & { authentication: 'verified' } = {
          uid: 1,
          uidValidity: '1',
          messageId: randomUUID(),
          from: 'info@account.netflix.com',
          subject: mail.subject,
          receivedAt: new Date(),
          recipients: [account.email],
          text: mail.text ?? '',
          readForBuyers: false,
          authentication: 'verified',
        };
        await flow().heard(account.mailboxId, [heard]);
      }
      const healths = await knex()('platform_accounts')
        .whereIn(
          'id',
          accounts.slice(0, 3).map((account) => account.id),
        )
        .orderBy('id')
        .pluck('health');
      expect(healths).to.deep.equal(['broken', 'broken', 'attention']);
      // A buyer of the fourth account reports; staff confirm it from the page.
      const buyer = await loginAs('user');
      const subscriptionId = await subscribe(harness().container, buyer, platform);
      const onAccount = (await knex()('subscriptions').where({ id: subscriptionId }).first('platform_account_id')).platform_account_id as number;
      await api()
        .post('/api/subscribe/reportproblem')
        .set(buyer.auth)
        .send({ subscriptionId, kind: 'profileTaken', note: 'someone renamed my profile' })
        .expect(200);

      const page = await loggedInPage(browser, baseUrl, admin, { role: ADMIN, language: lang });
      await page.setBypassCSP(true);
      await page.goto(`${baseUrl}/jve/health`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="admin-health"][data-status="loaded"]');
      const banners = await page.$$eval('[data-testid="admin-health-incident"]', (items) => items.map((item) => item.textContent ?? ''));
      const banner = banners.find((text) => text.includes(platform.name));
      expect(banner, banners.join('\n'))
        .to.contain(lang === 'en' ? 'Platform-wide incident' : '플랫폼 전체 장애')
        .and.contain(`#${accounts[2].id}`);
      const card = `[data-testid="admin-health-account"][data-account-id="${onAccount}"]`;
      const report = `${card} [data-testid="admin-health-report"]`;
      await page.waitForSelector(report);
      expect(await page.$eval(report, (element) => element.textContent ?? ''))
        .to.contain(`#${subscriptionId}`)
        .and.contain('someone renamed my profile')
        .and.contain(lang === 'en' ? 'profile taken' : '프로필 사용 중');
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.click(`${report} [data-testid="admin-health-confirm-report"]`);
      await page.waitForSelector(`${card}[data-state="broken"]`);
      await page.waitForSelector(`${report}[data-confirmed="true"]`);
      const [audit] = await knex()('audit_log')
        .where({ action: 'account.problem.confirm', target_id: String(onAccount) })
        .select('actor_user_id');
      expect(audit.actor_user_id).to.equal(admin.id);
      await page.close();
    });
  }
});
