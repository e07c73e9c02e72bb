import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { type Knex, SubscriptionsService } from '@subshare/core';
import { harness } from '../support/harness.js';

/** A node of EXPLAIN's JSON plan, as far as the test reads it. */
type PlanNode = { 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; Plans?: PlanNode[] };
/** Thrown to roll a test's transaction back. */
class RolledBack extends Error {}

/** The database itself must refuse two active subscriptions on one slot at overlapping times. */
describe('the slot guarantee (database constraint)', () => {
  let knex: Knex;
  let accountId: number;
  let userId: number;
  let orderItemIds: number[];

  const day = (n: number) => new Date(Date.UTC(2027, 0, 1 + n));

  async function subscribe(slot: number, from: number, to: number, extra: Record<string, unknown> = {}) {
    const orderItemId = orderItemIds.shift()!;
    const [row] = await knex('subscriptions')
      .insert({ user_id: userId, order_item_id: orderItemId, platform_account_id: accountId, slot, starts_at: day(from), ends_at: day(to), ...extra })
      .returning('id');
    return row.id as number;
  }

  async function expectRefused(promise: Promise<unknown>, code: string) {
    try {
      await promise;
    } catch (error) {
      expect((error as { code?: string }).code).to.equal(code);
      return;
    }
    expect.fail('the database accepted a shared slot');
  }

  beforeEach(async () => {
    knex = harness().knex;
    const [user] = await knex('users')
      .insert({ email: `slot-${randomUUID()}@example.test` })
      .returning('id');
    userId = user.id;
    const [account] = await knex('platform_accounts')
      .insert({
        platform_id: 1,
        login_email: `acct-${randomUUID()}@example.test`,
        password_encrypted: 'x',
        slots_count: 4,
        forwarding_email: 'fw@example.test',
      })
      .returning('id');
    accountId = account.id;
    const [order] = await knex('orders')
      .insert({ user_id: userId, email: 'b@example.test', currency: 'EUR', total_minor: 500, subtotal_minor: 500, total_eur_minor: 500 })
      .returning('id');
    const items = await knex('order_items')
      .insert(
        Array.from({ length: 6 }, () => ({
          order_id: order.id,
          platform_id: 1,
          duration_id: 1,
          plan_type_id: 1,
          months: 1,
          unit_price_minor: 500,
          currency: 'EUR',
        })),
      )
      .returning('id');
    orderItemIds = items.map((item: { id: number }) => item.id);
  });

  it('refuses a second active subscription on the same slot for an overlapping period', async () => {
    await subscribe(2, 0, 30);
    await expectRefused(subscribe(2, 29, 60), '23P01');
  });

  it('allows the same slot for back-to-back periods and different slots at the same time', async () => {
    await subscribe(2, 0, 30);
    await subscribe(2, 30, 60);
    await subscribe(3, 0, 30);
  });

  it('treats slot 0 as the whole account: it overlaps every slot', async () => {
    await subscribe(1, 0, 30);
    await expectRefused(subscribe(0, 10, 20), '23P01');
    await subscribe(0, 30, 60);
    await expectRefused(subscribe(4, 40, 41), '23P01');
  });

  it('frees the slot once a subscription is no longer active', async () => {
    const first = await subscribe(2, 0, 30);
    await knex('subscriptions').where({ id: first }).update({ status: 'replaced' });
    await subscribe(2, 0, 30);
  });

  it('refuses a slot number beyond the account, and an end before the start', async () => {
    await expectRefused(subscribe(5, 0, 30), '23514');
    await expectRefused(subscribe(1, 30, 0), '23514');
  });

  it('a claim takes the next free slot; the same order item unit claimed again is already_activated, its replacement is not', async () => {
    const subscriptions = harness().container.get(SubscriptionsService);
    await subscribe(1, 0, 30); // slot 1 is another order item's
    const request = {
      userId,
      orderItemId: orderItemIds[0],
      unit: 0,
      platformId: 1,
      accounts: [{ id: accountId, slotsCount: 4 }],
      startsAt: day(0),
      endsAt: day(30),
    };
    const claimed = await knex.transaction((trx) => subscriptions.claimSlot(request, trx));
    expect(claimed?.subscription).to.include({ orderItemId: orderItemIds[0], slot: 2 });
    expect(claimed?.account).to.deep.equal({ id: accountId, slotsCount: 4 });

    // Slot 3 is free, but the unit has its subscription: the unit's own index refuses it.
    const again = await knex.transaction((trx) => subscriptions.claimSlot(request, trx)).catch((error: unknown) => error);
    expect(again).to.include({ code: 'already_activated' });
    const replacement = await knex.transaction((trx) => subscriptions.claimSlot({ ...request, replacedFromId: claimed!.subscription.id }, trx));
    expect(replacement?.subscription).to.include({ orderItemId: orderItemIds[0], slot: 3, replacedFromId: claimed!.subscription.id });
  });

  it("a claim's free-slot read reads its own accounts' subscriptions, not the rest of the shop's", async () => {
    // Found by bench:journey: each claim read every active subscription of every platform
    // overlapping its period (the exclusion constraint's index, probed by period alone), so claims
    // slowed as the shop sold more, with the platform's claim lock held (11 ms a claim at 3,600).
    const rowsRead = (plan: PlanNode): number =>
      (plan['Relation Name'] === 'subscriptions' ? plan['Actual Rows'] * plan['Actual Loops'] : 0) +
      (plan.Plans ?? []).reduce((sum, child) => sum + rowsRead(child), 0);
    await knex
      .transaction(async (trx) => {
        // The rest of the shop: 2,000 accounts of 5 slots, every slot held now (10,000 subscriptions).
        await trx.raw(
          `
          with accounts as (
            insert into platform_accounts (platform_id, login_email, password_encrypted, slots_count, forwarding_email)
            select 1, 'crowd-' || g || '-' || gen_random_uuid() || '@example.test', 'x', 5, 'fw@example.test' from generate_series(1, 2000) g
            returning id),
          items as (
            insert into order_items (order_id, platform_id, duration_id, plan_type_id, months, unit_price_minor, currency)
            select (select order_id from order_items where id = ?), 1, 1, 1, 1, 500, 'EUR' from accounts
            returning id)
          insert into subscriptions (user_id, order_item_id, unit, platform_account_id, slot, starts_at, ends_at)
          select ?, i.id, s.slot - 1, a.id, s.slot, now() - interval '1 day', now() + interval '30 days'
            from (select id, row_number() over (order by id) as n from accounts) a
            join (select id, row_number() over (order by id) as n from items) i using (n)
           cross join generate_series(1, 5) as s (slot)`,
          [orderItemIds[0], userId],
        );
        await trx.raw('analyze subscriptions');
        // This platform's account: one subscription, on slot 1.
        await trx('subscriptions').insert({
          user_id: userId,
          order_item_id: orderItemIds[1],
          platform_account_id: accountId,
          slot: 1,
          starts_at: day(-400),
          ends_at: day(4000),
        });
        const read = `select platform_account_id, slot from free_slots(?::bigint[], ?::int[], 0, -1, now(), now() + interval '1 month') limit 1`;
        const { rows } = await trx.raw(read, [[accountId], [4]]);
        expect(rows).to.deep.equal([{ platform_account_id: accountId, slot: 2 }]);
        const { rows: explained } = await trx.raw(`explain (analyze, format json) ${read}`, [[accountId], [4]]);
        expect(rowsRead(explained[0]['QUERY PLAN'][0].Plan)).to.be.at.most(1);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  });

  it('holds under concurrency: of six simultaneous claims on one slot exactly one wins', async () => {
    const claims = await Promise.allSettled(Array.from({ length: 6 }, () => subscribe(1, 0, 30)));
    expect(claims.filter((claim) => claim.status === 'fulfilled')).to.have.length(1);
    for (const claim of claims.filter((c): c is PromiseRejectedResult => c.status === 'rejected')) {
      expect(claim.reason.code).to.equal('23P01');
    }
  });
});
