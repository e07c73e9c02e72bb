import { expect } from 'chai';
import { addMonths } from '@subshare/core';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import {
  activation,
  buyer,
  createAccount,
  createOrder,
  createPlatform,
  emailsWithKey,
  markPaid,
  markPaidQuietly,
  queueActivation,
  refreshCatalog,
  unfinishedActivationJobs,
  type TestPlatform,
} from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

/**
 * Activation: paid orders get a slot at once when one is free for the whole period, or wait in
 * state 6; races are decided by the database, a killed activation leaves nothing behind, new
 * capacity and staff activate waiting orders. Each test has a platform of its own.
 */
describe('activation of paid orders', function () {
  this.timeout(120_000);
  const knex = () => harness().knex;
  const orderRow = (id: number) => knex()('orders').where({ id }).first();
  const itemsOf = (orderId: number) => knex()('order_items').where({ order_id: orderId }).orderBy('id');
  const subscriptionsOfPlatform = (platformId: number) =>
    knex()('subscriptions')
      .join('platform_accounts', 'platform_accounts.id', 'subscriptions.platform_account_id')
      .where('platform_accounts.platform_id', platformId)
      .select('subscriptions.*');

  /**
   * The worker has answered the account's account-created event (a pass over the platform's
   * waiting orders): a test that drives activation itself waits for it, or that pass may take
   * the test's paid orders first.
   */
  const accountCreatedHandled = (accountId: number) =>
    waitFor(async () => (await harness().boss.findJobs('account-created', { data: { accountId } })).filter((job) => job.state === 'completed').length === 1, {
      what: `the account-created job of account ${accountId}`,
    });

  async function paidOrders(platform: TestPlatform, count: number): Promise<number[]> {
    const users = await Promise.all(Array.from({ length: count }, () => buyer()));
    return Promise.all(users.map((user) => createOrder(user, platform)));
  }

  async function settled(orderIds: number[]) {
    await waitFor(
      async () => {
        if ((await unfinishedActivationJobs(orderIds)) > 0) return false;
        const mailed = await knex()('email_outbox')
          .whereIn(
            'idempotency_key',
            orderIds.flatMap((id) => [`order:${id}:purchased`, `order:${id}:activated`]),
          )
          .countDistinct<Array<{ n: number }>>('idempotency_key as n');
        return Number(mailed[0].n) >= orderIds.length;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'every activation to settle' },
    );
  }

  /**
   * Another writer (no claim lock) holds slots 1 to `held` of a fresh account, in a transaction
   * not yet committed, so invisible to the activation's read of free slots; the activation of a
   * paid order waits on the exclusion constraint for slot 1, then the writer commits. Answers
   * the activation's result and the account.
   */
  async function activateWhileAnotherWriterHolds({ slotsCount, held }: { slotsCount: number; held: number }) {
    const platform = await createPlatform({ slotsCount });
    const account = await createAccount(platform.id, slotsCount);
    await accountCreatedHandled(account.id);
    const [orderId, ...others] = await paidOrders(platform, held + 1);
    await markPaidQuietly(orderId);
    const now = harness().clock.now();
    const writer = await knex().transaction();
    try {
      for (const [index, other] of others.entries()) {
        const [item] = await itemsOf(other);
        await writer('subscriptions').insert({
          user_id: (await orderRow(other)).user_id,
          order_item_id: item.id,
          platform_account_id: account.id,
          slot: index + 1,
          starts_at: now,
          ends_at: addMonths(now, 1),
        });
      }
      const running = activation().activate(orderId);
      await waitFor(
        async () =>
          (
            await knex().raw(
              `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and (query like 'insert into subscriptions %' or query like 'select * from claim_first_free_slot(%')`,
            )
          ).rows.length > 0,
        { what: 'the activation to wait on the constraint for slot 1' },
      );
      await writer.commit();
      return { result: await running, account };
    } finally {
      if (!writer.isCompleted()) await writer.rollback();
    }
  }

  it('gives a free slot at once: subscription for the whole period, order 2, one e-mail with profile and end date', async () => {
    const platform = await createPlatform({ slotsCount: 4 });
    const account = await createAccount(platform.id, 4);
    const user = await buyer();
    const orderId = await createOrder(user, platform);
    const before = harness().clock.now();
    expect(await markPaid(orderId)).to.equal(true);

    const order = await waitFor(async () => ((await orderRow(orderId)).state === 2 ? orderRow(orderId) : undefined), { what: 'the order to complete' });
    expect(order.completed_at).to.be.instanceOf(Date);
    const [item] = await itemsOf(orderId);
    const subscription = await knex()('subscriptions').where({ id: item.subscription_id }).first();
    expect(subscription).to.include({ user_id: user.id, order_item_id: item.id, platform_account_id: account.id, slot: 1, status: 'active', unit: 0 });
    expect(subscription.starts_at.getTime()).to.be.at.least(before.getTime() - 1000);
    expect(subscription.ends_at.getTime()).to.equal(addMonths(subscription.starts_at, platform.months).getTime());
    expect(item.applied_at).to.be.instanceOf(Date);

    const mail = await harness().mailTo(user.email, (m) => m.subject.includes(`#${orderId}`));
    expect(mail.subject).to.contain('is active');
    expect(await emailsWithKey(`order:${orderId}:activated`)).to.equal(1);
    expect(await emailsWithKey(`order:${orderId}:purchased`)).to.equal(0);
  });

  it('gives a single-slot account whole (slot 0), and never a slot for only part of the period', async () => {
    const platform = await createPlatform({ slotsCount: 1 });
    const account = await createAccount(platform.id, 1);
    await accountCreatedHandled(account.id);
    // The account is busy from the 10th day on: a 1-month order does not fit.
    const [blocker] = await paidOrders(platform, 1);
    await markPaidQuietly(blocker);
    const [blockerItem] = await itemsOf(blocker);
    const now = harness().clock.now();
    await knex()('subscriptions').insert({
      user_id: (await orderRow(blocker)).user_id,
      order_item_id: blockerItem.id,
      platform_account_id: account.id,
      slot: 0,
      starts_at: new Date(now.getTime() + 10 * 86_400_000),
      ends_at: new Date(now.getTime() + 40 * 86_400_000),
    });
    const [waiting] = await paidOrders(platform, 1);
    await markPaidQuietly(waiting);
    expect((await activation().activate(waiting)).outcome).to.equal('waiting');
    expect((await orderRow(waiting)).state).to.equal(6);

    const other = await createPlatform({ slotsCount: 1 });
    const whole = await createAccount(other.id, 1);
    await accountCreatedHandled(whole.id);
    const [orderId] = await paidOrders(other, 1);
    await markPaidQuietly(orderId);
    const result = await activation().activate(orderId);
    expect(result.outcome).to.equal('activated');
    expect(result.subscriptions[0]).to.include({ platformAccountId: whole.id, slot: 0 });
  });

  it('50 concurrent paid orders for 10 free slots on 2 accounts: exactly 10 activated, 40 waiting, no shared slot, each e-mail once', async () => {
    const platform = await createPlatform({ slotsCount: 5 });
    const accounts = [await createAccount(platform.id, 5), await createAccount(platform.id, 5)];
    const ids = await paidOrders(platform, 50);

    // Payments arrive at once (each sends its job to the worker), while the same orders are
    // activated directly, twice each, all concurrently with the worker's jobs.
    await Promise.all([...ids.map((id) => markPaid(id)), ...[...ids, ...ids].map((id) => activation().activate(id))]);
    await settled(ids);

    const orders = await knex()('orders').whereIn('id', ids);
    expect(orders.filter((o) => o.state === 2)).to.have.length(10);
    expect(orders.filter((o) => o.state === 6)).to.have.length(40);
    const subscriptions = await subscriptionsOfPlatform(platform.id);
    expect(subscriptions).to.have.length(10);
    expect(new Set(subscriptions.map((s) => `${s.platform_account_id}:${s.slot}`)).size).to.equal(10);
    expect(subscriptions.every((s) => s.slot >= 1 && s.slot <= 5 && accounts.some((a) => a.id === s.platform_account_id))).to.equal(true);
    for (const order of orders) {
      const completed = order.state === 2;
      expect(await emailsWithKey(`order:${order.id}:activated`)).to.equal(completed ? 1 : 0);
      expect(await emailsWithKey(`order:${order.id}:purchased`)).to.equal(completed ? 0 : 1);
      const [item] = await itemsOf(order.id);
      expect(item.subscription_id !== null).to.equal(completed);
    }

    // New capacity: the waiting orders are tried again, oldest payment first; 3 more get a slot.
    const longestWaiting = (
      await knex()('orders')
        .whereIn('id', ids)
        .where({ state: 6 })
        .orderBy([{ column: 'paid_at' }, { column: 'id' }])
    )
      .slice(0, 3)
      .map((o) => o.id);
    await createAccount(platform.id, 3);
    await waitFor(async () => (await knex()('orders').whereIn('id', ids).where({ state: 2 })).length === 13, {
      timeoutMs: 30_000,
      what: 'three waiting orders to be activated by the new account',
    });
    await settled(ids);
    expect(await knex()('orders').whereIn('id', ids).where({ state: 6 })).to.have.length(37);
    const after = await subscriptionsOfPlatform(platform.id);
    expect(after).to.have.length(13);
    expect(new Set(after.map((s) => `${s.platform_account_id}:${s.slot}`)).size).to.equal(13);
    expect((await knex()('orders').whereIn('id', longestWaiting)).map((o) => o.state)).to.deep.equal([2, 2, 2]);
    for (const order of await knex()('orders').whereIn('id', ids).where({ state: 2 })) {
      expect(await emailsWithKey(`order:${order.id}:activated`)).to.equal(1);
    }
  });

  it('capacity that comes while waiting orders are tried again goes to the longest waiting, not to the order the pass has reached', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    const account = await createAccount(platform.id, 2);
    // Its own account-created pass has run (no order waited yet), so the pass below is the only one.
    await accountCreatedHandled(account.id);
    for (const orderId of await paidOrders(platform, 2)) {
      await markPaidQuietly(orderId);
      expect((await activation().activate(orderId)).outcome).to.equal('activated');
    }
    // One after the other: ids and payment times both ascending, so this is the pass's order too.
    const waiting: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const [orderId] = await paidOrders(platform, 1);
      await markPaidQuietly(orderId);
      waiting.push(orderId);
    }

    // The pass tells the two oldest to wait, then stops at the third, whose row this test holds.
    const holder = await knex().transaction();
    await holder('orders').where({ id: waiting[2] }).forUpdate().first();
    const pass = activation().activateWaiting({ platformId: platform.id });
    await waitFor(async () => (await emailsWithKey(`order:${waiting[1]}:purchased`)) === 1, { what: 'the second oldest told to wait' });
    await waitFor(
      async () =>
        (await knex().raw(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n >= 1,
      { what: 'the pass waiting for the third order' },
    );
    // A slot comes now (an account of one slot, written directly: no account-created pass of its own).
    await knex().raw(
      `insert into platform_accounts (platform_id, login_email, password_encrypted, slots_count, forwarding_email)
       select platform_id, 'extra-' || login_email, password_encrypted, 1, forwarding_email from platform_accounts where id = ?`,
      [account.id],
    );
    await holder.commit();

    expect(await pass).to.include({ waiting: 4, activated: 1 });
    const states = await Promise.all(waiting.map(async (id) => (await orderRow(id)).state));
    expect(states).to.deep.equal([2, 6, 6, 6]);
  });

  it('lets the database decide: a slot taken meanwhile by another writer fails on the constraint, and the next slot is taken', async () => {
    const { result, account } = await activateWhileAnotherWriterHolds({ slotsCount: 3, held: 1 });
    expect(result.outcome).to.equal('activated');
    expect(result.subscriptions[0]).to.include({ platformAccountId: account.id, slot: 2 });
  });

  it('an older order that needs more slots than are free does not keep a younger one from the slot it fits', async () => {
    const platform = await createPlatform({ slotsCount: 3 });
    await knex()('platforms').where({ id: platform.id }).update({ max_quantity: 3 });
    refreshCatalog();
    const account = await createAccount(platform.id, 3);
    await accountCreatedHandled(account.id);
    // Two of the three slots taken; then an older order wants two, a younger one.
    const held = await createOrder(await buyer(), platform, 2);
    await markPaidQuietly(held);
    expect((await activation().activate(held)).outcome).to.equal('activated');
    const big = await createOrder(await buyer(), platform, 2);
    await markPaidQuietly(big);
    const small = await createOrder(await buyer(), platform, 1);
    await markPaidQuietly(small);

    expect(await activation().activateWaiting({ platformId: platform.id })).to.include({ waiting: 2, activated: 1 });
    expect((await orderRow(big)).state).to.equal(6);
    expect((await orderRow(small)).state).to.equal(2);
  });

  it('goes on past every candidate of its first read when another writer took them all meanwhile', async () => {
    // A claim reads free slots a few at a time: here every one of its first read is taken.
    const { result, account } = await activateWhileAnotherWriterHolds({ slotsCount: 12, held: 10 });
    expect(result.outcome).to.equal('activated');
    expect(result.subscriptions[0]).to.include({ platformAccountId: account.id, slot: 11 });
  });

  it('is safe to run many times for one order: one subscription, one e-mail', async () => {
    const platform = await createPlatform({ slotsCount: 3 });
    await accountCreatedHandled((await createAccount(platform.id, 3)).id);
    const [orderId] = await paidOrders(platform, 1);
    await markPaidQuietly(orderId);
    const outcomes = (await Promise.all(Array.from({ length: 6 }, () => activation().activate(orderId)))).map((r) => r.outcome).sort();
    expect(outcomes).to.deep.equal(['activated', 'not_waiting', 'not_waiting', 'not_waiting', 'not_waiting', 'not_waiting']);
    expect((await activation().activate(orderId)).outcome).to.equal('not_waiting');
    expect(await subscriptionsOfPlatform(platform.id)).to.have.length(1);
    expect(await emailsWithKey(`order:${orderId}:activated`)).to.equal(1);
  });

  it('a worker killed in the middle of an activation leaves nothing behind; the retry completes it once', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    const account = await createAccount(platform.id, 2);
    await accountCreatedHandled(account.id);
    const [orderId] = await paidOrders(platform, 1);
    await markPaidQuietly(orderId);
    const [item] = await itemsOf(orderId);

    // Hold the order item's row against updates (not against the foreign key's share lock): the
    // activation inserts its subscription, then waits here when it links the item to it.
    const holder = await knex().transaction();
    try {
      await holder.raw('select id from order_items where id = ? for no key update', [item.id]);
      const running = activation()
        .activate(orderId)
        .then(
          () => undefined,
          (error: unknown) => error as Error,
        );
      const pid = await waitFor(
        async () => {
          const { rows } = await knex().raw(
            `select a.pid from pg_stat_activity a
              where a.datname = current_database() and a.wait_event_type = 'Lock' and a.query like '%update order_items set subscription_id%'
                and exists (select 1 from pg_locks l join pg_class c on c.oid = l.relation
                             where l.pid = a.pid and c.relname = 'subscriptions' and l.mode = 'RowExclusiveLock')`,
          );
          return rows[0]?.pid as number | undefined;
        },
        { what: 'the activation to stop after inserting its subscription' },
      );
      await knex().raw('select pg_terminate_backend(?)', [pid]);
      const failure = await running;
      expect(failure).to.be.instanceOf(Error);
    } finally {
      await holder.rollback();
    }

    expect((await orderRow(orderId)).state).to.equal(6);
    expect(await knex()('subscriptions').where({ order_item_id: item.id })).to.have.length(0);
    expect((await itemsOf(orderId))[0].subscription_id).to.equal(null);
    expect(await emailsWithKey(`order:${orderId}:activated`)).to.equal(0);

    // The retry (the job pg-boss runs again) completes it, once.
    await queueActivation(orderId);
    await waitFor(async () => (await orderRow(orderId)).state === 2, { what: 'the retried activation' });
    expect((await activation().activate(orderId)).outcome).to.equal('not_waiting');
    const subscriptions = await knex()('subscriptions').where({ order_item_id: item.id });
    expect(subscriptions).to.have.length(1);
    expect(subscriptions[0]).to.include({ platform_account_id: account.id, slot: 1, status: 'active' });
    expect(await emailsWithKey(`order:${orderId}:activated`)).to.equal(1);
  });

  it('an item bought twice gets two slots, or waits whole', async () => {
    const platform = await createPlatform({ slotsCount: 3 });
    await knex()('platforms').where({ id: platform.id }).update({ max_quantity: 3 });
    await accountCreatedHandled((await createAccount(platform.id, 3)).id);
    refreshCatalog();
    // Two buyers: the same buyer's second order would renew their two subscriptions instead.
    const orderIds = [await createOrder(await buyer(), platform, 2), await createOrder(await buyer(), platform, 2)];
    for (const id of orderIds) await markPaidQuietly(id);
    const first = await activation().activate(orderIds[0]);
    expect(first.outcome).to.equal('activated');
    expect(first.subscriptions.map((s) => s.slot)).to.deep.equal([1, 2]);
    // One slot is left: the second order (2 units) waits, and holds nothing.
    expect((await activation().activate(orderIds[1])).outcome).to.equal('waiting');
    expect(await subscriptionsOfPlatform(platform.id)).to.have.length(2);
  });

  describe('staff activation (POST /api/webhook/activatesubscribe)', () => {
    let moderator: TestUser;
    let user: TestUser;

    before(async () => {
      [moderator, user] = await Promise.all([loginAs('moderator'), loginAs('user')]);
    });

    it('activates a waiting invitation order now, answers its slots, audits; JSON body parsed', async () => {
      const platform = await createPlatform({ slotsCount: 6, needsInvitation: true, category: 1 });
      const account = await createAccount(platform.id, 6);
      const [orderId] = await paidOrders(platform, 1);
      await markPaid(orderId);
      // Invitation platforms wait for staff, even with free slots.
      await waitFor(() => emailsWithKey(`order:${orderId}:purchased`), { what: 'the waiting e-mail' });
      expect((await orderRow(orderId)).state).to.equal(6);

      await api().post('/api/webhook/activatesubscribe').set(user.auth).send({ orderId }).expect(403);
      await api().post('/api/webhook/activatesubscribe').send({ orderId }).expect(401);
      const bad = await api().post('/api/webhook/activatesubscribe').set(moderator.auth).send({ orderId: 'x' }).expect(400);
      expect(bad.body.errors).to.have.key('orderId');
      await api().post('/api/webhook/activatesubscribe').set(moderator.auth).send({ orderId: 2_000_000_000 }).expect(404);

      const res = await api().post('/api/webhook/activatesubscribe').set(moderator.auth).send({ orderId }).expect(200);
      expect(res.body.orderId).to.equal(orderId);
      expect(res.body.state).to.equal(2);
      expect(res.body.subscribers).to.have.length(1);
      expect(res.body.subscribers[0]).to.include({ platformAccountId: account.id, slotId: 1, platformSlotCount: 6 });
      expect((await orderRow(orderId)).state).to.equal(2);
      const [entry] = await knex()('audit_log').where({ action: 'order.activate', target_id: String(orderId) });
      expect(entry).to.include({ actor_user_id: moderator.id, target_type: 'order' });

      const again = await api().post('/api/webhook/activatesubscribe').set(moderator.auth).send({ orderId }).expect(409);
      expect(again.body.code).to.equal('order_not_waiting');
    });

    it('answers 409 no_free_slot when nothing is free, and changes nothing', async () => {
      const platform = await createPlatform({ slotsCount: 1 });
      const [orderId] = await paidOrders(platform, 1);
      await markPaidQuietly(orderId);
      const res = await api().post('/api/webhook/activatesubscribe').set(moderator.auth).send({ orderId }).expect(409);
      expect(res.body.code).to.equal('no_free_slot');
      expect((await orderRow(orderId)).state).to.equal(6);
      expect(await knex()('audit_log').where({ action: 'order.activate', target_id: String(orderId) })).to.have.length(0);
    });
  });
});
