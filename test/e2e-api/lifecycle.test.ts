import { expect } from 'chai';
import { addMonths, ManualClock, TOKENS, ActivationFlow, type AuthenticatedUser, ExpiryFlow, type JobQueue, UserPanelFlow } from '@subshare/core';
import { harness, useWorker } from '../support/harness.js';
import type { CapturedMail } from '../support/smtp.js';
import { containerWith } from '../support/containers.js';
import { buyer, createAccount, createOrder, createPlatform, emailsWithKey, markPaidQuietly, platformJobsSettled, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

const DAY = 24 * 3600_000;

/**
 * The end of a subscription's fixed period, the reminder before it, and renewal, with time
 * driven by hand: these flows run in a container of their own whose clock the test sets to the
 * exact millisecond (the harness clock is left alone). E-mails go through the real outbox and
 * the harness worker to the real SMTP server. The file's database holds only its own
 * subscriptions, so moving the clock ends no one else's.
 */
describe('subscription lifecycle: expiry at the end time, 3-day reminders, renewal', function () {
  this.timeout(120_000);
  const knex = () => harness().knex;
  let clock: ManualClock;
  let activation: ActivationFlow;
  let expiry: ExpiryFlow;
  let panel: UserPanelFlow;

  before(() => {
    clock = new ManualClock(harness().clock.now());
    const container = containerWith({ clock });
    activation = container.get(ActivationFlow);
    expiry = container.get(ExpiryFlow);
    panel = container.get(UserPanelFlow);
  });

  const subscription = (id: number) => knex()('subscriptions').where({ id }).first();

  /** The e-mail as the SMTP server received it (a longer wait than harness().mailTo's: the worker may be busy). */
  const delivered = (address: string, predicate: (mail: CapturedMail) => boolean) =>
    waitFor(() => harness().smtp.messagesTo(address).find(predicate), { timeoutMs: 90_000, intervalMs: 200, what: `an e-mail to ${address}` });
  const outboxOf = (key: string) => knex()('email_outbox').where({ idempotency_key: key }).first();

  /** Jobs of the harness worker about this platform (capacity news) are done, so none acts on the test's orders. */

  /** A buyer's order of the platform, paid (state 6, no job: the test activates it at its clock's time). */
  async function paidOrder(user: AuthenticatedUser, platform: TestPlatform): Promise<number> {
    const orderId = await createOrder(user, platform);
    // The buyer's language at the time of the order is the language of its e-mails.
    await knex()('orders').where({ id: orderId }).update({ language_id: user.languageId });
    await markPaidQuietly(orderId);
    return orderId;
  }

  /** A platform with one single-slot account, and a buyer holding that slot from the clock's now. */
  async function heldSlot(options: { languageId?: 1 | 2; needsInvitation?: boolean; slots?: number } = {}) {
    const platform = await createPlatform({ slotsCount: options.slots ?? 1, needsInvitation: options.needsInvitation });
    const account = await createAccount(platform.id, options.slots ?? 1);
    await platformJobsSettled(platform.id);
    const user = await buyer({ languageId: options.languageId });
    const orderId = await paidOrder(user, platform);
    const result = options.needsInvitation ? await activation.activateNow({ label: 'test' }, { orderId }) : await activation.activate(orderId);
    expect(result.outcome).to.equal('activated');
    const [held] = result.subscriptions;
    return { platform, account, user, orderId, subscriptionId: held.subscriptionId, endsAt: held.endsAt, startsAt: held.startsAt };
  }

  it('ends a subscription exactly at its end time: not a millisecond before; the slot is free from then on and the buyer is told once', async () => {
    clock.set(harness().clock.now());
    const held = await heldSlot();
    expect(held.endsAt.getTime()).to.equal(addMonths(held.startsAt, held.platform.months).getTime());
    const viewer = { ...held.user };

    // One millisecond before the end: still active, still in the panel, the slot still taken.
    clock.set(held.endsAt.getTime() - 1);
    expect((await expiry.endDue()).subscriptionIds).to.not.include(held.subscriptionId);
    expect((await subscription(held.subscriptionId)).status).to.equal('active');
    expect((await panel.panel(viewer, { id: held.user.id, languageId: 1 }, { label: 'test' })).subscribers.map((s) => s.subscribeId)).to.deep.equal([
      held.subscriptionId,
    ]);
    const early = await buyer();
    const earlyOrder = await paidOrder(early, held.platform);
    expect((await activation.activate(earlyOrder)).outcome).to.equal('waiting');

    // At the end time: gone from the panel even before the job runs; the job (twice at once) ends it once.
    clock.set(held.endsAt);
    expect((await panel.panel(viewer, { id: held.user.id, languageId: 1 }, { label: 'test' })).subscribers).to.deep.equal([]);
    const [first, second] = await Promise.all([expiry.endDue(), expiry.endDue()]);
    expect([...first.subscriptionIds, ...second.subscriptionIds].filter((id) => id === held.subscriptionId)).to.have.length(1);
    const row = await subscription(held.subscriptionId);
    expect(row.status).to.equal('ended');
    expect(new Date(row.ended_at).getTime()).to.equal(held.endsAt.getTime());
    expect((await expiry.endDue()).subscriptionIds).to.not.include(held.subscriptionId);
    expect(await emailsWithKey(`subscription:${held.subscriptionId}:ended`)).to.equal(1);
    const mail = await delivered(held.user.email, (m) => m.subject.includes('has ended'));
    expect(mail.text).to.include(`#${held.subscriptionId}`);
    expect(mail.html).to.include(`/platform/${held.platform.id}`);

    // The freed slot is capacity: the waiting order gets it (by the retry the expiry queued, or by ours).
    await platformJobsSettled(held.platform.id);
    const retried = await activation.activate(earlyOrder);
    const taken = await knex()('subscriptions').where({ platform_account_id: held.account.id, status: 'active' });
    expect(taken).to.have.length(1);
    expect(taken[0].user_id).to.equal(early.id);
    expect(['activated', 'not_waiting']).to.include(retried.outcome);
  });

  it('an e-mail that cannot be written does not stop the subscription from ending, nor the others', async () => {
    clock.set(harness().clock.now());
    const broken = await heldSlot();
    const fine = await heldSlot();
    // An old order item without a platform name: its e-mail is refused as invalid data.
    await knex()('order_items').where({ subscription_id: broken.subscriptionId }).update({ platform_name: '' });
    clock.set(Math.max(broken.endsAt.getTime(), fine.endsAt.getTime()));
    const { subscriptionIds } = await expiry.endDue();
    expect(subscriptionIds).to.include.members([broken.subscriptionId, fine.subscriptionId]);
    expect((await subscription(broken.subscriptionId)).status).to.equal('ended');
    expect(await emailsWithKey(`subscription:${broken.subscriptionId}:ended`)).to.equal(0);
    expect(await emailsWithKey(`subscription:${fine.subscriptionId}:ended`)).to.equal(1);
  });

  it('reminds the buyer 3 days before the end, once per period, in their language, with the renewal link', async () => {
    clock.set(harness().clock.now());
    const held = await heldSlot({ languageId: 2 });
    const key = `subscription:${held.subscriptionId}:reminder:${held.endsAt.toISOString()}`;

    clock.set(held.endsAt.getTime() - 3 * DAY - 1);
    expect((await expiry.remindDue()).subscriptionIds).to.not.include(held.subscriptionId);
    expect(await emailsWithKey(key)).to.equal(0);

    clock.set(held.endsAt.getTime() - 3 * DAY);
    const [first, second] = await Promise.all([expiry.remindDue(), expiry.remindDue()]);
    expect([...first.subscriptionIds, ...second.subscriptionIds].filter((id) => id === held.subscriptionId)).to.have.length(1);
    clock.advance(DAY);
    expect((await expiry.remindDue()).subscriptionIds).to.not.include(held.subscriptionId);
    expect(await emailsWithKey(key)).to.equal(1);
    expect((await outboxOf(key)).kind).to.equal(7);
    const mail = await delivered(held.user.email, (m) => m.subject.includes('만료됩니다'));
    // The renewal link pays the renewal of this subscription in one click (issue 28), no login needed.
    expect(mail.html).to.include('/api/subscribe/autorenew/pay?token=');
    expect((await subscription(held.subscriptionId)).reminded_at).to.not.equal(null);
  });

  it('renews: buying the platform again extends the same subscription on the same slot from its end date, once, and the new period gets its own reminder', async () => {
    clock.set(harness().clock.now());
    const held = await heldSlot({ slots: 3 });
    const before = await subscription(held.subscriptionId);
    clock.set(held.endsAt.getTime() - 2 * DAY);
    await expiry.remindDue();

    const renewalOrder = await paidOrder(held.user, held.platform);
    const [renewed, again] = [await activation.activate(renewalOrder), await activation.activate(renewalOrder)];
    expect(renewed.outcome).to.equal('activated');
    expect(renewed.subscriptions).to.have.length(1);
    expect(renewed.subscriptions[0]).to.include({ subscriptionId: held.subscriptionId, slot: before.slot, platformAccountId: held.account.id, renewed: true });
    expect(again.outcome).to.equal('not_waiting');

    const after = await subscription(held.subscriptionId);
    const newEnd = addMonths(held.endsAt, held.platform.months);
    expect(new Date(after.ends_at).getTime()).to.equal(newEnd.getTime());
    expect(new Date(after.starts_at).getTime()).to.equal(held.startsAt.getTime());
    expect(after.reminded_at).to.equal(null);
    expect(await knex()('subscriptions').where({ user_id: held.user.id })).to.have.length(1);
    const renewals = await knex()('subscription_renewals').where({ subscription_id: held.subscriptionId });
    expect(renewals).to.have.length(1);
    expect(new Date(renewals[0].previous_ends_at).getTime()).to.equal(held.endsAt.getTime());
    const order = await knex()('orders').where({ id: renewalOrder }).first();
    expect(order.state).to.equal(2);
    expect((await knex()('order_items').where({ order_id: renewalOrder }).first()).subscription_id).to.equal(held.subscriptionId);
    expect((await outboxOf(`order:${renewalOrder}:activated`)).kind).to.equal(1);

    // The old end passes without ending it; the reminder of the new period comes 3 days before the new end.
    clock.set(held.endsAt.getTime() + 1);
    expect((await expiry.endDue()).subscriptionIds).to.not.include(held.subscriptionId);
    clock.set(newEnd.getTime() - 3 * DAY);
    expect((await expiry.remindDue()).subscriptionIds).to.include(held.subscriptionId);
    expect(await emailsWithKey(`subscription:${held.subscriptionId}:reminder:${newEnd.toISOString()}`)).to.equal(1);
  });

  it('the scheduled end-due job of the worker ends what is due (the queue is wired to the flow)', async () => {
    // Bought two months ago by the test's clock, so it is past its end by the worker's clock.
    clock.set(harness().clock.now().getTime() - 62 * DAY);
    const held = await heldSlot();
    await harness().container.get<JobQueue>(TOKENS.JobQueue).send('subscriptions-end-due', {});
    await waitFor(async () => (await subscription(held.subscriptionId)).status === 'ended', { timeoutMs: 30_000, what: 'the end-due job to end it' });
    await delivered(held.user.email, (m) => m.subject.includes('has ended'));
  });

  it('a renewal on a family-invitation platform does not wait for a new invitation', async () => {
    clock.set(harness().clock.now());
    const held = await heldSlot({ needsInvitation: true });
    const renewalOrder = await paidOrder(held.user, held.platform);
    const result = await activation.activate(renewalOrder);
    expect(result.outcome).to.equal('activated');
    expect(result.subscriptions[0]).to.include({ subscriptionId: held.subscriptionId, renewed: true });
  });

  it('a second buyer of the same platform is not a renewal: they wait for a slot of their own', async () => {
    clock.set(harness().clock.now());
    const held = await heldSlot();
    const other = await buyer();
    const otherOrder = await paidOrder(other, held.platform);
    expect((await activation.activate(otherOrder)).outcome).to.equal('waiting');
    expect(new Date((await subscription(held.subscriptionId)).ends_at).getTime()).to.equal(held.endsAt.getTime());
    expect(await knex()('subscription_renewals').where({ subscription_id: held.subscriptionId })).to.have.length(0);
  });
});
