import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { SUBSCRIPTIONS, type Knex, type SubscriptionsService } from '@subshare/core';
import { harness } from '../support/harness.js';

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
      .insert({ user_id: userId, email: 'b@example.test', currency: 'EUR', total_minor: 500, total_eur_minor: 500 })
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
    const subscriptions = harness().container.get<SubscriptionsService>(SUBSCRIPTIONS.Service);
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

  it('holds under concurrency: of six simultaneous claims on one slot exactly one wins', async () => {
    const claims = await Promise.allSettled(Array.from({ length: 6 }, () => subscribe(1, 0, 30)));
    expect(claims.filter((claim) => claim.status === 'fulfilled')).to.have.length(1);
    for (const claim of claims.filter((c): c is PromiseRejectedResult => c.status === 'rejected')) {
      expect(claim.reason.code).to.equal('23P01');
    }
  });
});
