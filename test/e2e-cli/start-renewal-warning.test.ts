import { expect } from 'chai';
import { freePort, REMINDERS_UNDELIVERED_WARNING } from '@subshare/core';
import { exited, spawnCli } from '../support/cli.js';
import { harness, testEnv } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * Stripe keys without SMTP_URL (issue 34, item 5): the start banner says that reminders will not be
 * delivered and renewals will not be charged (the dashboard says it too:
 * test/e2e-api/renewal-reminders-undelivered.test.ts). Production mode, on the run's database.
 */
describe('subshare start: the warning when renewals cannot be charged', function () {
  this.timeout(120_000);

  async function startOutput(env: Record<string, string>): Promise<string> {
    const port = await freePort();
    // testEnv has no SMTP_URL unless given one.
    const child = spawnCli(['start'], {
      ...testEnv(harness().db.url, { CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64') }),
      ...env,
      PORT: String(port),
    });
    await waitFor(() => child.output().includes('subshare is running at'), { timeoutMs: 60_000, intervalMs: 100, what: 'the start banner' });
    child.kill('SIGTERM');
    expect(await exited(child)).to.equal(0);
    return child.output();
  }

  it('Stripe keys and no SMTP_URL: the start banner says renewals will not be charged', async () => {
    const output = await startOutput({ STRIPE_SECRET_KEY: 'sk_test_no_smtp', STRIPE_WEBHOOK_SECRET: 'whsec_no_smtp' });
    expect(output).to.contain(`  ${REMINDERS_UNDELIVERED_WARNING}\n`);
    expect(REMINDERS_UNDELIVERED_WARNING).to.contain('SMTP_URL').and.contain('renewals will not be charged');
  });

  it('no Stripe keys (no automatic renewal offered): no such warning', async () => {
    expect(await startOutput({})).not.to.contain(REMINDERS_UNDELIVERED_WARNING);
  });
});
