import { expect } from 'chai';
import { EMAIL_KIND } from '@subshare/core';
import { ordersByState, subscriptionsOf, unfinishedActivations, useCluster } from '../support/cluster.js';
import { harness } from '../support/harness.js';
import { createAccount, createPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 16: the shop as a cluster (test/support/cluster.ts: two `serve` and two `worker`
 * processes on one PostgreSQL, behind a round-robin proxy). What the README promises of scaling
 * out, tried for real:
 * - a burst of 1,000 buyers for 10 free slots: exactly 10 active, 990 waiting, no 5xx, no slot
 *   held twice, and every buyer's signed notification delivered to BOTH `serve` at once is
 *   applied once (one event row, one e-mail);
 * Workers killed in the middle of activations: cluster-kill.test.ts. A catalog change served by
 * the other `serve` within a second: test/serial/cluster-catalog-change.test.ts (a time limit, so
 * in the serial lane, where the suite's other files do not load the machine).
 */
describe('a cluster: two serve and two worker processes on one PostgreSQL, behind a round-robin proxy', function () {
  this.timeout(600_000);
  const cluster = useCluster();
  const knex = () => harness().knex;

  it('1,000 buyers at once for 10 free slots: exactly 10 active, 990 waiting, no 5xx, no slot held twice, each notification (sent to both serve at once) applied once', async () => {
    const platform = await createPlatform({ slotsCount: 5 });
    await createAccount(platform.id, 5);
    await createAccount(platform.id, 5);
    const people = await cluster.buyers(1_000);

    const bought = await Promise.all(
      people.map(async (who) => {
        const { orderId, sessionId } = await cluster.buy(platform, who);
        await cluster.pay(
          sessionId,
          cluster.serves.map((serve) => serve.url),
        );
        return orderId;
      }),
    );

    await waitFor(async () => (await unfinishedActivations()) === 0, { timeoutMs: 120_000, intervalMs: 250, what: 'every activation job done' });
    const states = await ordersByState(bought);
    expect(states, 'orders by state (2 active, 6 paid and waiting)').to.deep.equal({ 2: 10, 6: 990 });
    const subscriptions = await subscriptionsOf(bought);
    expect(subscriptions).to.deep.equal({ total: 10, active: 10, doubled_orders: 0, shared_slots: 0 });

    // Each notification reached both processes and was applied once: one event row and one paid payment per order.
    const { rows: events } = await knex().raw(
      `select count(*)::int as events, count(distinct order_id)::int as orders from payment_events where provider = 'stripe' and order_id = any(?)`,
      [bought],
    );
    expect(events[0]).to.deep.equal({ events: 1_000, orders: 1_000 });
    const paid = await knex()('payments').whereIn('order_id', bought).andWhere({ status: 'paid' }).count<Array<{ n: string }>>('* as n');
    expect(Number(paid[0]!.n)).to.equal(1_000);
    // One e-mail per buyer: "active" for the 10, "paid, waiting for a slot" for the 990.
    const { rows: mails } = await knex().raw(
      `select kind, count(*)::int as n, count(distinct user_id)::int as buyers from email_outbox where user_id = any(?) group by kind order by kind`,
      [people.map((who) => who.id)],
    );
    expect(mails).to.deep.equal([
      { kind: EMAIL_KIND.purchasedActiveSubscribe, n: 10, buyers: 10 },
      { kind: EMAIL_KIND.purchasedNotActiveSubscribe, n: 990, buyers: 990 },
    ]);

    expect(cluster.proxy.failures, 'requests the proxy could not relay').to.deep.equal([]);
    const errors = [...cluster.proxy.statuses].filter(([status]) => status >= 500);
    expect(errors, 'answers with a 5xx status through the proxy').to.deep.equal([]);
    expect(cluster.proxy.statuses.get(200)).to.equal(2_000);
    expect(cluster.proxy.perBackend, 'both serve processes served').to.deep.equal([1_000, 1_000]);
  });
});
