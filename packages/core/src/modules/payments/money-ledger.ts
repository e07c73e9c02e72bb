/**
 * The money ledger's rules, as pure functions: what a payment's money events come to (access,
 * money back, what is left to refund). No database, no clock, no arrival order: a payment's
 * standing is a function of the SET of its events, so shuffling or repeating deliveries cannot
 * change it. The rules are written out as a table in this module's CONTEXT.md; this file is the
 * only place that decides them, and the notification flow, the staff refund, the panel and slot
 * (through order-access), the e-mails, the admin pages and the dashboard's net revenue all read it.
 *
 * Order independence comes from how each kind folds:
 * - one refund (by the provider's id) takes its most final status: pending < succeeded < failed
 *   (Stripe's refunds can fail after succeeding; a failed one gave nothing back);
 * - one dispute takes its closing status over `open` (won and lost are final);
 * - Stripe's cumulative `amount_refunded` counts by its largest value, less the refunds it is made
 *   of that we know one by one (so they are not counted twice);
 * - chargebacks count once per provider id, by their largest amount.
 */

export type LedgerKind = 'payment' | 'refund' | 'refund_total' | 'dispute' | 'chargeback';

/** One money event as the rules need it (a `money_events` row, minus its bookkeeping). */
export interface LedgerEntry {
  kind: LedgerKind;
  /** The provider's id of what the event is about: the refund (`re_…`), the dispute (`dp_…`), … */
  subject: string;
  /** payment: `paid`; refund: `pending` | `succeeded` | `failed`; dispute: `open` | `won` | `lost`; refund_total and chargeback: `succeeded`. */
  status: string;
  /** Minor units of the payment's currency (0 when the event names no amount). */
  amount: number;
}

/** A money fact as a provider (or staff) states it, before it is a ledger row: an entry with its currency. */
export interface MoneyFact extends Omit<LedgerEntry, 'kind'> {
  kind: Exclude<LedgerKind, 'payment'>;
  currency?: 'EUR' | 'KRW';
}

/** What the ledger says about a payment's period now. */
export type PaymentAccess = 'unpaid' | 'active' | 'suspended' | 'refunded' | 'charged_back';

export interface PaymentStanding {
  access: PaymentAccess;
  /** What the buyer paid (0 until the payment event is in the ledger). */
  paid: number;
  /** Refunds that succeeded (never more than paid). */
  refunded: number;
  /** Refunds asked for and not yet succeeded or failed. */
  pendingRefund: number;
  /** What the buyer's bank took back (chargebacks, lost disputes), beyond the refunds. */
  chargedBack: number;
  openDisputes: number;
  /** What a staff refund may still give back now, under the policy's fee (0 unless access is active). */
  refundable: number;
  /** paid − refunded − charged back: what the shop keeps of this payment. */
  net: number;
}

const REFUND_RANK: Record<string, number> = { pending: 0, succeeded: 1, failed: 2 };
// won and lost are both final; should a provider ever say both, the money it took back decides.
const DISPUTE_RANK: Record<string, number> = { open: 0, won: 1, lost: 2 };

/** Per subject, the entry with the most final status (ties: the larger amount, so the result does not depend on order). */
function finalBySubject(entries: LedgerEntry[], rank: Record<string, number>): Map<string, LedgerEntry> {
  const bySubject = new Map<string, LedgerEntry>();
  for (const entry of entries) {
    const seen = bySubject.get(entry.subject);
    const better =
      !seen ||
      (rank[entry.status] ?? -1) > (rank[seen.status] ?? -1) ||
      ((rank[entry.status] ?? -1) === (rank[seen.status] ?? -1) && entry.amount > seen.amount);
    if (better) bySubject.set(entry.subject, { ...entry, amount: Math.max(entry.amount, seen?.amount ?? 0) });
    else if (seen && entry.amount > seen.amount) bySubject.set(entry.subject, { ...seen, amount: entry.amount });
  }
  return bySubject;
}

/**
 * A payment's standing from its ledger. `amount`: what it was for; `fee`: the refund policy's fee
 * on it (a refund that gives back at least `amount − fee` is the whole refund the policy allows,
 * and ends access; less is partial, and access stays).
 */
export function paymentStanding(payment: { amount: number; fee: number }, entries: LedgerEntry[]): PaymentStanding {
  const paid = entries.some((entry) => entry.kind === 'payment' && entry.status === 'paid') ? payment.amount : 0;
  const refunds = [
    ...finalBySubject(
      entries.filter((entry) => entry.kind === 'refund'),
      REFUND_RANK,
    ).values(),
  ];
  const disputes = [
    ...finalBySubject(
      entries.filter((entry) => entry.kind === 'dispute'),
      DISPUTE_RANK,
    ).values(),
  ];
  const chargebacks = finalBySubject(
    entries.filter((entry) => entry.kind === 'chargeback'),
    {},
  );
  const sum = (list: LedgerEntry[]) => list.reduce((total, entry) => total + entry.amount, 0);

  // A provider's running total counts only its own money: credit given back is no part of it.
  const known = sum(refunds.filter((refund) => !isCreditSubject(refund.subject)));
  const largestTotal = Math.max(0, ...entries.filter((entry) => entry.kind === 'refund_total').map((entry) => entry.amount));
  const onlyInTotal = Math.max(0, largestTotal - known);
  const refunded = Math.min(paid, sum(refunds.filter((refund) => refund.status === 'succeeded')) + onlyInTotal);
  const pendingRefund = Math.min(paid - refunded, sum(refunds.filter((refund) => refund.status === 'pending')));
  // A lost dispute without an amount took the whole payment.
  const taken =
    sum(disputes.filter((dispute) => dispute.status === 'lost').map((dispute) => ({ ...dispute, amount: dispute.amount || payment.amount }))) +
    sum([...chargebacks.values()]);
  const chargedBack = Math.min(paid - refunded, taken);
  const openDisputes = disputes.filter((dispute) => dispute.status === 'open').length;

  let access: PaymentAccess;
  if (paid === 0) access = 'unpaid';
  else if (taken > 0) access = 'charged_back';
  else if (refunded >= Math.max(1, payment.amount - payment.fee)) access = 'refunded';
  else if (openDisputes > 0) access = 'suspended';
  else access = 'active';

  const refundable = access === 'active' ? Math.max(0, payment.amount - payment.fee - refunded - pendingRefund) : 0;
  return { access, paid, refunded, pendingRefund, chargedBack, openDisputes, refundable, net: paid - refunded - chargedBack };
}

/**
 * The subject of a refund given back as credit (issue 37: a refund gives credit back first, up to
 * the credit the payment used), written at once with provider `credit`: `credit:<refund id>`.
 */
export const creditRefundSubject = (refundId: number) => `credit:${refundId}`;
export const isCreditSubject = (subject: string) => subject.startsWith('credit:');

/** What an order's access is, from its payments' standings: the best of them (a second payment refunded leaves the first's access). */
export function orderAccess(standings: PaymentStanding[]): PaymentAccess {
  const order: PaymentAccess[] = ['active', 'suspended', 'charged_back', 'refunded'];
  for (const access of order) if (standings.some((standing) => standing.access === access)) return access;
  return 'unpaid';
}

/** Whether access of this kind lets the buyer use what they paid for. */
export function grantsAccess(access: PaymentAccess): boolean {
  return access === 'active';
}

/** Whether access of this kind has ended for good (the money went back). */
export function accessEnded(access: PaymentAccess): boolean {
  return access === 'refunded' || access === 'charged_back';
}

/**
 * What one event did to its order, for staff: the order's access before and after it, and the
 * money. `waiting` when it could not be applied yet (its payment is unknown or unpaid).
 */
export type LedgerEffect =
  'waiting' | 'paid' | 'access_ended' | 'suspended' | 'reinstated' | 'partial_refund' | 'refund_pending' | 'refund_failed' | 'dispute_won' | 'no_change';

export function effectOf(before: PaymentAccess, after: PaymentAccess, entry: LedgerEntry, refundedBefore: number, refundedAfter: number): LedgerEffect {
  if (after === 'unpaid') return 'waiting';
  if (before === 'unpaid') return accessEnded(after) ? 'access_ended' : after === 'suspended' ? 'suspended' : 'paid';
  if (!accessEnded(before) && accessEnded(after)) return 'access_ended';
  if (before !== 'suspended' && after === 'suspended') return 'suspended';
  if (before === 'suspended' && after === 'active') return entry.kind === 'dispute' ? 'dispute_won' : 'reinstated';
  if (entry.kind === 'refund' && entry.status === 'pending') return 'refund_pending';
  if (entry.kind === 'refund' && entry.status === 'failed') return 'refund_failed';
  if (refundedAfter > refundedBefore) return 'partial_refund';
  return 'no_change';
}
