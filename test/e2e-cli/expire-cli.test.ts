import { expect } from 'chai';
import { ManualClock, ActivationFlow } from '@subshare/core';
import { runCli } from '../support/cli.js';
import { harness, testEnv } from '../support/harness.js';
import { containerWith } from '../support/containers.js';
import { buyer, createAccount, createOrder, createPlatform, markPaidQuietly } from '../support/shop.js';

const DAY = 24 * 3600_000;

describe('subshare CLI: expire-due', function () {
  // Each test starts several `subshare` processes; beside the browser files they may take a
  // few seconds each. The timeout catches a hang, it times nothing.
  this.timeout(180_000);

  /** An order activated by a clock `daysAgo` days back: a 1-month subscription that ends (or ended) accordingly. */
  async function subscriptionBought(daysAgo: number): Promise<number> {
    const container = containerWith({ clock: new ManualClock(Date.now() - daysAgo * DAY) });
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const orderId = await createOrder(await buyer(), platform);
    await markPaidQuietly(orderId);
    const result = await container.get(ActivationFlow).activate(orderId);
    expect(result.outcome).to.equal('activated');
    return result.subscriptions[0].subscriptionId;
  }

  it('ends what is past its end, reminds what ends within 3 days, leaves the rest, and says so', async () => {
    // About a month ago plus a day: ended. A month ago less 2 days: ends within 3 days. Today: neither.
    const [past, soon, fresh] = [await subscriptionBought(33), await subscriptionBought(29), await subscriptionBought(0)];
    const env = testEnv(harness().db.url, { CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64') });
    const result = await runCli(['expire-due'], env);
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    expect(result.stdout).to.match(/^Ended \d+ subscription\(s\): .*\n/);
    expect(result.stdout).to.match(/Reminded \d+ buyer\(s\) of an end within 3 days/);
    const status = async (id: number) => (await harness().knex('subscriptions').where({ id }).first()) as { status: string; reminded_at: Date | null };
    expect((await status(past)).status).to.equal('ended');
    expect(result.stdout).to.include(String(past));
    expect((await status(soon)).status).to.equal('active');
    expect((await status(soon)).reminded_at).to.not.equal(null);
    expect((await status(fresh)).status).to.equal('active');
    expect((await status(fresh)).reminded_at).to.equal(null);

    const again = await runCli(['expire-due', '--no-reminders'], env);
    expect(again.code).to.equal(0);
    expect(again.stdout).to.not.include(`${past}`);
    expect(again.stdout).to.not.match(/Reminded/);
  });
});
