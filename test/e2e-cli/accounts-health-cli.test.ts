import { expect } from 'chai';
import { FLOWS, type AccountHealthFlow } from '@subshare/core';
import { runCli } from '../support/cli.js';
import { harness, testEnv } from '../support/harness.js';
import { subscribe } from '../support/mailboxes.js';
import { loginAs } from '../support/agent.js';
import { createAccount, createPlatform } from '../support/shop.js';

describe('subshare CLI: accounts --health', function () {
  // Each test starts several `subshare` processes; beside the browser files they may take a
  // few seconds each. The timeout catches a hang, it times nothing.
  this.timeout(180_000);

  // No worker in this file: the account-created and move jobs wait, so the move below is this test's own.
  it('prints the accounts by health, broken first, why, and where the buyers went; --health is required', async () => {
    const { container } = harness();
    const flow = container.get<AccountHealthFlow>(FLOWS.AccountHealth);
    const platform = await createPlatform({ slotsCount: 2 });
    const broken = await createAccount(platform.id, 2);
    const subscriptionId = await subscribe(container, await loginAs('user'), platform);
    const spare = await createAccount(platform.id, 2);
    await flow.setHealth({ label: 'test' }, { accountId: broken.id, state: 'broken', reason: 'payment failed' });
    expect(await flow.moveBuyers(broken.id)).to.deep.equal({ moved: 1, waiting: 0 });

    const env = testEnv(harness().db.url, { CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64') });
    const result = await runCli(['accounts', '--health', '--platform', String(platform.id)], env);
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).to.equal('Accounts: 2 (broken 1, attention 0, ok 1).');
    const brokenLine = lines.findIndex((line) => line.startsWith(`${broken.id} `));
    const spareLine = lines.findIndex((line) => line.startsWith(`${spare.id} `));
    expect(brokenLine).to.be.greaterThan(0).and.lessThan(spareLine);
    expect(lines[brokenLine]).to.contain('broken').and.contain('staff: payment failed').and.contain(`#${subscriptionId} -> account ${spare.id} profile 1`);

    const without = await runCli(['accounts'], env);
    expect(without.code).to.not.equal(0);
    expect(without.stderr).to.contain('--health');
  });
});
