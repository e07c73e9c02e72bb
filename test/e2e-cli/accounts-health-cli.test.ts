import { expect } from 'chai';
import { AccountHealthFlow } from '@subshare/core';
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
    const flow = container.get(AccountHealthFlow);
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

  it('--set broken marks an account broken with a reason only with --yes, audited; --set ok repairs it', async () => {
    const { knex } = harness();
    const platform = await createPlatform({ slotsCount: 2 });
    const account = await createAccount(platform.id, 2);
    await createAccount(platform.id, 2); // a spare: the platform stays on sale
    const env = testEnv(harness().db.url, { CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64') });
    const healthOf = async () => (await knex('platform_accounts').where({ id: account.id }).first('health')).health as string;
    const set = (...extra: string[]) => runCli(['accounts', '--health', '--set', ...extra], env);

    // Without --yes nothing changes: marking broken moves its buyers at once.
    const unconfirmed = await set('broken', '--account', String(account.id), '--reason', 'owner changed the password');
    expect(unconfirmed.code).to.not.equal(0);
    expect(unconfirmed.stderr).to.contain('--yes');
    expect(await healthOf()).to.equal('ok');
    const noReason = await set('broken', '--account', String(account.id), '--yes');
    expect(noReason.code).to.not.equal(0);
    expect(noReason.stderr).to.contain('--reason');
    const badState = await set('dead', '--account', String(account.id), '--reason', 'x');
    expect(badState.code).to.not.equal(0);
    expect(badState.stderr).to.contain('--set must be one of ok, attention, broken');

    const broken = await set('broken', '--account', String(account.id), '--reason', 'owner changed the password', '--yes');
    expect(broken.stderr).to.equal('');
    expect(broken.code).to.equal(0);
    expect(broken.stdout).to.contain(`Account ${account.id} is broken since`).and.contain('owner changed the password');
    expect(await healthOf()).to.equal('broken');
    const listed = await runCli(['accounts', '--health', '--platform', String(platform.id)], env);
    expect(listed.stdout.split('\n').find((line) => line.startsWith(`${account.id} `)))
      .to.contain('broken')
      .and.contain('staff: owner changed the password');

    const repaired = await set('ok', '--account', String(account.id), '--reason', 'password reset by us');
    expect(repaired.code).to.equal(0);
    expect(await healthOf()).to.equal('ok');
    const audit = await knex('audit_log')
      .where({ action: 'account.health.set', target_id: String(account.id) })
      .orderBy('id')
      .select('details', 'actor_label');
    expect(
      audit.map((row: { details: { to: string; reason: string }; actor_label: string }) => [row.details.to, row.details.reason, row.actor_label]),
    ).to.deep.equal([
      ['broken', 'owner changed the password', 'cli'],
      ['ok', 'password reset by us', 'cli'],
    ]);
  });
});
