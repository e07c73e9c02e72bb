/**
 * Factories for the subscription lifecycle: a platform of the test's own (so no other test's
 * accounts or orders share its slots), accounts made through the accounts service, orders made
 * through the orders service and paid the way a verified provider signal pays them.
 */
import { randomUUID } from 'node:crypto';
import {
  AccountsService,
  ActivationFlow,
  type AuthenticatedUser,
  CatalogService,
  OrdersService,
  type JobQueue,
  type PlatformAccountView,
  TOKENS,
} from '@subshare/core';
import { createUser } from './agent.js';
import { harness } from './harness.js';
import { waitFor } from './wait.js';

export interface TestPlatform {
  id: number;
  name: string;
  logoBase: string;
  typeId: number;
  durationId: number;
  months: number;
}

export const orders = () => harness().container.get(OrdersService);
export const activation = () => harness().container.get(ActivationFlow);
export const accountsService = () => harness().container.get(AccountsService);

/** A fresh, enabled platform with one 1-month Standard plan priced in EUR and KRW. */
export async function createPlatform(options: { slotsCount?: number; needsInvitation?: boolean; category?: number } = {}): Promise<TestPlatform> {
  const knex = harness().knex;
  const slug = `test-${randomUUID().slice(0, 8)}`;
  const name = `Platform ${slug}`;
  const duration = await knex('durations').where({ months: 1 }).first('id', 'months');
  const type = await knex('plan_types').orderBy('id').first('id');
  const id = await knex.transaction(async (trx) => {
    const [row] = await trx('platforms')
      .insert({
        slug,
        category: options.category ?? 0,
        logo_base: `/media/platforms/${slug}.svg`,
        logo_carousel: `/media/platforms/${slug}-carousel.svg`,
        color_one: '#112233',
        color_two: '#445566',
        slots_count: options.slotsCount ?? 5,
        needs_invitation: options.needsInvitation ?? false,
        sort_order: 1000,
      })
      .returning('id');
    await trx('platform_texts').insert([
      { platform_id: row.id, language_id: 1, name, description: 'A test platform.' },
      { platform_id: row.id, language_id: 2, name: `${name} (KO)`, description: '테스트' },
    ]);
    await trx('platform_durations').insert({ platform_id: row.id, duration_id: duration.id, is_enabled: true });
    await trx('platform_plan_types').insert({ platform_id: row.id, plan_type_id: type.id, is_enabled: true, position: 0 });
    await trx('platform_prices').insert([
      { platform_id: row.id, duration_id: duration.id, plan_type_id: type.id, currency: 'EUR', price_minor: 900, sale_price_minor: 499 },
      { platform_id: row.id, duration_id: duration.id, plan_type_id: type.id, currency: 'KRW', price_minor: 9000, sale_price_minor: 6900 },
    ]);
    return row.id as number;
  });
  refreshCatalog();
  return { id, name, logoBase: `/media/platforms/${slug}.svg`, typeId: type.id, durationId: duration.id, months: duration.months };
}

/** The catalog is cached per process: after changing its tables by hand, forget the copy. */
export function refreshCatalog(): void {
  harness().container.get(CatalogService).invalidate();
}

/** A platform account made by the accounts service (password encrypted, `account-created` sent). */
export async function createAccount(
  platformId: number,
  slotsCount: number,
  password = `pw-${randomUUID().slice(0, 10)}`,
): Promise<PlatformAccountView & { password: string }> {
  const account = await accountsService().createAccount(
    { label: 'test' },
    { platformId, email: `acct-${randomUUID().slice(0, 12)}@example.test`, password, slotsCount, femail: `fw-${randomUUID().slice(0, 8)}@example.test` },
  );
  return { ...account, password };
}

export async function buyer(options: { languageId?: 1 | 2 } = {}): Promise<AuthenticatedUser> {
  const user = await createUser({ languageId: options.languageId });
  return {
    id: user.id,
    email: user.email,
    name: 'Test User',
    photoUrl: null,
    role: 0,
    isEmailVerified: true,
    languageId: options.languageId ?? 1,
    sessionId: randomUUID(),
  };
}

/** What a test buyer orders, as the storefront's POST /api/order/insert body: the platform's one plan, in English, in EUR. */
export function orderInput(platform: Pick<TestPlatform, 'id' | 'typeId' | 'durationId'>, quantity = 1) {
  return { platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1 as const, quantity, currency: 'EUR' as const };
}

export async function createOrder(user: AuthenticatedUser, platform: TestPlatform, quantity = 1): Promise<number> {
  const order = await orders().createOrder(user, orderInput(platform, quantity), 'EUR');
  return order.id;
}

/** Queues the activation job as markPaid (or a pg-boss retry) does. */
export async function queueActivation(orderId: number): Promise<void> {
  await harness()
    .container.get<JobQueue>(TOKENS.JobQueue)
    .send('order-activate', { orderId }, { singletonKey: `order:${orderId}` });
}

/** What a verified provider signal does: state 6 and the activation job, in one transaction. */
export async function markPaid(orderId: number): Promise<boolean> {
  return harness().knex.transaction((trx) => orders().markPaid(orderId, 2, trx));
}

/**
 * Waits until the platform's capacity jobs are done (a new account's `account-created`, a pass over
 * the waiting orders). With the test worker running, such a job that runs late would find an order
 * the test has just marked paid and activate it first, before the test's own activate() (CI40).
 */
export async function platformJobsSettled(platformId: number): Promise<void> {
  await waitFor(async () => (await unfinishedJobs(['account-created', 'subscriptions-activate-waiting'], { platformId })) === 0, {
    timeoutMs: 30_000,
    what: `the platform ${platformId} jobs to finish`,
  });
}

/** A job that waits, will retry or runs: not finished one way or the other. */
export const UNFINISHED_JOB_STATES = ['created', 'retry', 'active'] as const;

/**
 * How many jobs of these queues (whose data holds `data`, when given) are in one of `states`:
 * pg-boss's findJobs, never its own tables, which are its to change.
 */
export async function jobsIn(queues: readonly string[], states: readonly string[], data?: object): Promise<number> {
  let count = 0;
  for (const queue of queues) {
    const jobs = await harness().boss.findJobs(queue, { ...(data ? { data } : {}), limit: 100_000 });
    count += jobs.filter((job) => states.includes(job.state)).length;
  }
  return count;
}

/** Jobs of these queues whose data holds `data` and that wait, will retry or run. */
function unfinishedJobs(queues: string[], data: object): Promise<number> {
  return jobsIn(queues, UNFINISHED_JOB_STATES, data);
}

/** Paid without the job (the test drives activation itself). */
export async function markPaidQuietly(orderId: number): Promise<void> {
  await harness().knex('orders').where({ id: orderId }).update({ state: 6, paid_at: harness().clock.now(), payment_method: 2 });
}

/** Activation jobs of these orders that are not finished yet. */
export async function unfinishedActivationJobs(orderIds: number[]): Promise<number> {
  let count = 0;
  for (const orderId of orderIds) count += await unfinishedJobs(['order-activate'], { orderId });
  return count;
}

export async function emailsWithKey(key: string): Promise<number> {
  const [{ n }] = await harness().knex('email_outbox').where({ idempotency_key: key }).count<Array<{ n: number }>>('id as n');
  return Number(n);
}
