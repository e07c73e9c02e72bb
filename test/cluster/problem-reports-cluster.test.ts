import { expect } from 'chai';
import { loginAs, uniqueIp, type TestUser } from '../support/agent.js';
import { useCluster } from '../support/cluster.js';
import { harness } from '../support/harness.js';
import { subscribe } from '../support/mailboxes.js';
import { createAccount, createPlatform, platformJobsSettled } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 33 in a cluster (two `serve`, two `worker` processes of the built CLI on one PostgreSQL):
 * a buyer's burst of reports spread over both `serve` counts once; two buyers break the account
 * and the cluster's workers move its buyers; and when two accounts of a platform are reported by
 * two buyers each, all at once through both processes, with one account of the platform broken
 * already, the circuit breaker lets exactly one more break and holds the other.
 */
describe('a cluster: buyer reports and the circuit breaker across processes (2 serve, 2 worker)', function () {
  this.timeout(300_000);
  const cluster = useCluster();
  const knex = () => harness().knex;

  interface Holder {
    user: TestUser;
    subscriptionId: number;
  }

  /** A platform of `count` accounts of 2 slots, each full with 2 buyers, then a spare account with room for all. */
  async function shelf(count: number) {
    const platform = await createPlatform({ slotsCount: 2 });
    const accounts: Array<{ id: number; holders: Holder[] }> = [];
    for (let n = 0; n < count; n += 1) {
      const account = await createAccount(platform.id, 2);
      await platformJobsSettled(platform.id);
      const holders: Holder[] = [];
      for (let b = 0; b < 2; b += 1) {
        const user = await loginAs('user');
        holders.push({ user, subscriptionId: await subscribe(harness().container, user, platform) });
      }
      accounts.push({ id: account.id, holders });
    }
    const spare = await createAccount(platform.id, count * 2);
    await platformJobsSettled(platform.id);
    return { platform, accounts, spareId: spare.id };
  }

  /** The report, through the `serve` process `which` (0 or 1). */
  const report = (which: number, holder: Holder) =>
    cluster.call(
      cluster.serves[which].url,
      '/api/subscribe/reportproblem',
      { token: holder.user.token, ip: uniqueIp() },
      { subscriptionId: holder.subscriptionId, kind: 'cantLogIn' },
    );
  const healthOf = async (id: number) => (await knex()('platform_accounts').where({ id }).first('health')).health as string;

  it('a burst over both processes counts once; two buyers break the account and a worker moves its buyers', async () => {
    const { accounts, spareId } = await shelf(1);
    const [account] = accounts;
    const burst = await Promise.all(Array.from({ length: 10 }, (_, n) => report(n % 2, account.holders[0])));
    expect(burst.map((answer) => answer.status).sort()).to.deep.equal([200, ...Array(9).fill(409)]);
    expect(burst.filter((answer) => answer.status === 409).every((answer) => answer.body.code === 'problem_already_reported')).to.equal(true);
    expect(await healthOf(account.id)).to.equal('attention');

    expect((await report(1, account.holders[1])).status).to.equal(200);
    expect(await healthOf(account.id)).to.equal('broken');
    for (const holder of account.holders) {
      const moved = await waitFor(async () => knex()('subscriptions').where({ replaced_from_id: holder.subscriptionId }).first(), {
        what: 'a worker to move the buyer',
        timeoutMs: 30_000,
      });
      expect(moved.platform_account_id).to.equal(spareId);
    }
  });

  it('two accounts reported at once through both processes, one already broken: one more breaks, the other is held', async () => {
    const { platform, accounts } = await shelf(3);
    const [first, second, third] = accounts;
    expect((await report(0, first.holders[0])).status).to.equal(200);
    expect((await report(1, first.holders[1])).status).to.equal(200);
    expect(await healthOf(first.id)).to.equal('broken');
    // Each of the other two accounts already has one buyer's report; the second reports of both land at once, one on each process.
    expect((await report(0, second.holders[0])).status).to.equal(200);
    expect((await report(1, third.holders[0])).status).to.equal(200);
    const last = await Promise.all([report(0, second.holders[1]), report(1, third.holders[1])]);
    expect(last.map((answer) => answer.status)).to.deep.equal([200, 200]);
    expect([await healthOf(second.id), await healthOf(third.id)].sort()).to.deep.equal(['attention', 'broken']);
    const incidents = await knex()('platform_incidents').where({ platform_id: platform.id }).select('held', 'account_ids');
    expect(incidents).to.have.length(1);
    expect(incidents[0].held).to.equal(1);
    const heldId = Number(incidents[0].account_ids[0]);
    expect(await healthOf(heldId)).to.equal('attention');
    // The held account's buyers stay where they are.
    const held = accounts.find((account) => account.id === heldId)!;
    expect(await knex()('account_health_moves').where({ platform_account_id: heldId }).count('* as n').first()).to.deep.equal({ n: 0 });
    for (const holder of held.holders) expect((await knex()('subscriptions').where({ id: holder.subscriptionId }).first('status')).status).to.equal('active');
  });
});
