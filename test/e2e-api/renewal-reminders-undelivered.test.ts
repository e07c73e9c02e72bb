import { expect } from 'chai';
import type { AppConfig } from '@subshare/core';
import { createApp } from '@subshare/http';
import { api, loginAs } from '../support/agent.js';
import { containerWith } from '../support/containers.js';
import { harness } from '../support/harness.js';

/**
 * Stripe keys without SMTP_URL (issue 34, item 5): no renewal reminder is delivered, and no charge
 * is made before its reminder was, so no automatic renewal is ever charged. Staff see it on the
 * dashboard (`subshare start` prints REMINDERS_UNDELIVERED_WARNING: test/e2e-cli/production.test.ts). Not with SMTP, and not in
 * demo mode, whose console counts as delivery.
 */
describe('the dashboard warns when renewal reminders cannot be delivered', () => {
  const stripe = { secretKey: 'sk_test_reminders_undelivered', webhookSecret: 'whsec_reminders_undelivered' };

  async function dashboardWith(change: (config: AppConfig) => AppConfig) {
    const app = createApp(containerWith({ config: change(harness().config) }), { accessLog: false });
    const admin = await loginAs('admin', { app });
    return (await api(app).get('/api/admin/dashboard').set(admin.auth).expect(200)).body.renewals;
  }

  it('Stripe keys and no SMTP_URL: remindersUndelivered', async () => {
    const renewals = await dashboardWith((config) => ({ ...config, stripe, mail: { ...config.mail, smtpUrl: undefined } }));
    expect(renewals.remindersUndelivered).to.equal(true);
  });

  it('Stripe keys and SMTP_URL: no warning', async () => {
    expect((await dashboardWith((config) => ({ ...config, stripe }))).remindersUndelivered).to.equal(false);
  });

  it('demo mode without SMTP_URL (the console delivers) and without Stripe: no warning', async () => {
    const renewals = await dashboardWith((config) => ({ ...config, mode: 'demo', mail: { ...config.mail, smtpUrl: undefined } }));
    expect(renewals.remindersUndelivered).to.equal(false);
  });

  it('production without Stripe and without SMTP_URL: no automatic renewal is offered, so nothing to warn about', async () => {
    expect((await dashboardWith((config) => ({ ...config, mail: { ...config.mail, smtpUrl: undefined } }))).remindersUndelivered).to.equal(false);
  });
});
