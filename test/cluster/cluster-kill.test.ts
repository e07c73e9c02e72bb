import { expect } from 'chai';
import { ordersByState, runningActivations, subscriptionsOf, unfinishedActivations, useCluster } from '../support/cluster.js';
import { exited } from '../support/cli.js';
import { createAccount, createPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 16: the shop as a cluster (test/support/cluster.ts: two `serve` and two `worker`
 * processes on one PostgreSQL, behind a round-robin proxy), its workers killed with SIGKILL in the
 * middle of activations, again and again: every paid order ends active or waiting, none activated
 * twice, and the capacity is used.
 */
describe('a cluster whose workers are killed in the middle of activations', function () {
  this.timeout(600_000);
  const cluster = useCluster();

  it('workers killed with SIGKILL in the middle of activations, 20 times and more: every paid order active or waiting, none activated twice, the capacity used', async () => {
    const platform = await createPlatform({ slotsCount: 4 });
    await createAccount(platform.id, 4);
    let capacity = 4;
    const paid: number[] = [];
    let kills = 0;
    for (let round = 0; kills < 20; round += 1) {
      expect(round, 'rounds needed to kill 20 times in the middle of activations').to.be.below(40);
      const bought = await Promise.all((await cluster.buyers(8)).map((who) => cluster.buy(platform, who)));
      // Capacity arrives now and then (account-created: the waiting orders are tried again).
      if (round % 2 === 1) {
        await createAccount(platform.id, 4);
        capacity += 4;
      }
      const paying = Promise.all(bought.map(({ sessionId }) => cluster.pay(sessionId, [cluster.proxy.url])));
      // Kill both workers the moment an activation runs in one of them.
      const deadline = Date.now() + 10_000;
      let running = 0;
      while (running === 0 && Date.now() < deadline) running = await runningActivations();
      for (const worker of cluster.workers) worker.kill('SIGKILL');
      if (running > 0) kills += 1;
      await Promise.all(cluster.workers.map((worker) => exited(worker)));
      await paying;
      paid.push(...bought.map(({ orderId }) => orderId));
      cluster.workers = await Promise.all([cluster.startWorker(), cluster.startWorker()]);
    }

    // A job that was running in a killed worker is taken up again (its heartbeat stopped); then
    // every slot is used, each by one order, and every other paid order waits.
    const settled = async () => {
      const states = await ordersByState(paid);
      const subscriptions = await subscriptionsOf(paid);
      return (await unfinishedActivations()) === 0 && subscriptions.active === Math.min(paid.length, capacity) ? { states, subscriptions } : undefined;
    };
    const { states, subscriptions } = await waitFor(settled, { timeoutMs: 180_000, intervalMs: 500, what: 'the cluster settled after the kills' });
    expect(Object.keys(states).sort(), 'paid orders are active (2) or waiting (6), never lost').to.deep.equal(paid.length > capacity ? ['2', '6'] : ['2']);
    expect(states[2]).to.equal(Math.min(paid.length, capacity));
    expect(states[2] + (states[6] ?? 0)).to.equal(paid.length);
    expect(subscriptions).to.deep.equal({ total: states[2], active: states[2], doubled_orders: 0, shared_slots: 0 });
  });
});
