/**
 * The money ledger: every money event of an order as a `money_events` row, and what the rows come
 * to (money-ledger.ts, pure). The entry points that write it:
 *
 *   recordPayment(payment)          a payment (a first purchase or a renewal order's) is paid; its
 *                                   waiting events are applied now (the notification flow, through
 *                                   PaymentsService.applyReport; an off-session renewal charge
 *                                   comes through the same path)
 *   recordFacts(provider, …)        a provider's money-back events (refund pending / succeeded /
 *                                   failed, a cumulative refunded total, dispute opened / won /
 *                                   lost, chargeback), for a known payment or waiting for it
 *   recordStaffRefund(refund, …)    a staff refund the provider accepted (pending or succeeded), or
 *                                   CoinPal's manual one
 *
 * Every write happens inside the caller's transaction, holding the payment's row lock, so the
 * effects it reports (before → after) are exact. Readers: `standingOfOrder` (access, refundable),
 * `ofOrder` (staff's list), `waiting` (the dashboard), `moneyBackByDay` (net revenue).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { money, type CurrencyCode, type Money } from '../../shared/money.js';
import { TOKENS } from '../../shared/tokens.js';
import {
  effectOf,
  orderAccess,
  paymentStanding,
  type LedgerEffect,
  type LedgerEntry,
  type LedgerKind,
  type MoneyFact,
  type PaymentAccess,
  type PaymentStanding,
} from './money-ledger.js';

export type { MoneyFact };
import { PaymentRepository, type PaymentRow } from './payment.repository.js';
import { MoneyEventRepository } from './money-event.repository.js';
import type { MoneyEventRow } from './models/payment.model.js';
import { refundTerms } from './refund-policy.js';

/** A ledger row as staff see it (admin order page, dashboard). */
export interface LedgerEventView {
  id: number;
  provider: string;
  /** The provider's id of the event (Stripe `evt_…`), with the part it is about. */
  eventKey: string;
  eventType: string;
  orderId: number | null;
  paymentId: number | null;
  /** While waiting: the provider's name of the payment it waits for. */
  waitingFor: string | null;
  kind: LedgerKind;
  /** The provider's id of the money it is about (refund, dispute, PaymentIntent…). */
  subject: string;
  status: string;
  amount: Money | null;
  recordedAt: Date;
  appliedAt: Date | null;
  effect: LedgerEffect | null;
}

/** An order's money as the ledger has it. */
export interface OrderStanding {
  /** What the buyer's money buys: from the order's payments, its second payments left out. */
  access: PaymentAccess;
  /** `second`: a second successful payment of the order, which the shop refunds (issue 34); it grants no access and is not staff's to refund. */
  payments: Array<{ payment: PaymentRow; standing: PaymentStanding; second: boolean }>;
  /** Sums over the order's payments (minor units of its currency). */
  paid: number;
  refunded: number;
  chargedBack: number;
  pendingRefund: number;
  net: number;
}

@injectable()
export class LedgerService {
  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(MoneyEventRepository) private readonly events: MoneyEventRepository,
    @inject(PaymentRepository) private readonly payments: PaymentRepository,
  ) {}

  /** The refund policy's fee on a payment: the line between a partial refund (access stays) and a whole one. */
  private feeOf(payment: PaymentRow): number {
    return refundTerms(this.config.refunds, money(Number(payment.amount_minor), payment.currency as CurrencyCode), null, this.clock.now()).fee.amount;
  }

  private async rowsOfPayment(paymentId: number, trx?: Knex.Transaction): Promise<MoneyEventRow[]> {
    return this.events.ofPayment(paymentId, trx);
  }

  /** The payment's standing from its applied rows (and `extra`, not yet written). */
  standingOf(payment: PaymentRow, rows: Array<Pick<MoneyEventRow, 'kind' | 'subject' | 'status' | 'amount_minor' | 'applied_at'>>): PaymentStanding {
    const entries: LedgerEntry[] = rows
      .filter((row) => row.applied_at !== null)
      .map((row) => ({ kind: row.kind, subject: row.subject, status: row.status, amount: Number(row.amount_minor) }));
    return paymentStanding({ amount: Number(payment.amount_minor), fee: this.feeOf(payment) }, entries);
  }

  async standingOfPayment(payment: PaymentRow, trx?: Knex.Transaction): Promise<PaymentStanding> {
    return this.standingOf(payment, await this.rowsOfPayment(payment.id, trx));
  }

  /** The order's access and money, from the ledgers of its payments. */
  async standingOfOrder(orderId: number, trx?: Knex.Transaction): Promise<OrderStanding> {
    const payments = await this.payments.ofOrderWithSecond(orderId, trx);
    const rows = await this.events.ofPayments(
      payments.map(({ payment }) => payment.id),
      trx,
    );
    const each = payments.map(({ payment, second }) => ({
      payment,
      standing: this.standingOf(
        payment,
        rows.filter((row) => row.payment_id === payment.id),
      ),
      second,
    }));
    const total = (field: 'paid' | 'refunded' | 'chargedBack' | 'pendingRefund' | 'net') => each.reduce((sum, entry) => sum + entry.standing[field], 0);
    return {
      // A second payment goes back whatever its refund's state: it neither keeps access that the
      // first payment's refund or chargeback ended, nor lifts a dispute's suspension.
      access: orderAccess(each.filter((entry) => !entry.second).map((entry) => entry.standing)),
      payments: each,
      paid: total('paid'),
      refunded: total('refunded'),
      chargedBack: total('chargedBack'),
      pendingRefund: total('pendingRefund'),
      net: total('net'),
    };
  }

  /**
   * The payment is paid: its `payment` row, then the rows that waited for it (named by the
   * provider's id of its money, or our reference) join it and are applied, oldest first, each
   * with its effect. Inside the transaction that settled the payment (holding its lock).
   */
  async recordPayment(provider: string, eventKey: string, eventType: string, payment: PaymentRow, trx: Knex.Transaction): Promise<void> {
    const now = this.clock.now();
    const names = [payment.provider_payment_id, payment.reference].filter((name): name is string => !!name);
    await this.lockNames(provider, names, trx);
    await this.events.insertOnce(
      {
        provider,
        event_key: `${eventKey}/payment`,
        event_type: eventType,
        order_id: payment.order_id,
        payment_id: payment.id,
        kind: 'payment',
        subject: payment.provider_payment_id ?? payment.reference ?? String(payment.id),
        status: 'paid',
        amount_minor: Number(payment.amount_minor),
        currency: payment.currency,
        recorded_at: now,
      },
      trx,
    );
    if (names.length > 0) await this.events.attachWaiting(provider, names, payment, trx);
    await this.applyWaiting(payment, trx);
  }

  /**
   * Records a provider's money facts about one event (each once: `eventKey/subject`). With a paid
   * payment they apply at once; otherwise they wait (`waitingFor`: how the provider names the
   * payment). Answers whether the payment's standing changed, and the effects.
   */
  async recordFacts(
    event: { provider: string; eventKey: string; eventType: string; waitingFor?: string },
    payment: PaymentRow | undefined,
    facts: MoneyFact[],
    trx: Knex.Transaction,
  ): Promise<{ recorded: number; waiting: boolean; before?: PaymentStanding; after?: PaymentStanding; effects: LedgerEffect[] }> {
    const now = this.clock.now();
    const rows = payment ? await this.rowsOfPayment(payment.id, trx) : [];
    const isPaid = rows.some((row) => row.kind === 'payment' && row.applied_at !== null);
    const before = payment && this.standingOf(payment, rows);
    let current = rows;
    const effects: LedgerEffect[] = [];
    let recorded = 0;
    for (const fact of facts) {
      const applied = payment !== undefined && isPaid;
      const draft = { kind: fact.kind, subject: fact.subject, status: fact.status, amount_minor: fact.amount, applied_at: applied ? now : null };
      let effect: LedgerEffect = 'waiting';
      if (applied) {
        const was = this.standingOf(payment, current);
        const now_ = this.standingOf(payment, [...current, draft]);
        effect = effectOf(
          was.access,
          now_.access,
          { kind: fact.kind, subject: fact.subject, status: fact.status, amount: fact.amount },
          was.refunded,
          now_.refunded,
        );
      }
      const inserted = await this.events.insertUnlessConflict(
        {
          provider: event.provider,
          event_key: `${event.eventKey}/${fact.kind}:${fact.subject}`,
          event_type: event.eventType,
          order_id: payment?.order_id ?? null,
          payment_id: payment?.id ?? null,
          waiting_for: payment ? null : (event.waitingFor ?? null),
          kind: fact.kind,
          subject: fact.subject,
          status: fact.status,
          amount_minor: fact.amount,
          currency: fact.currency ?? payment?.currency ?? null,
          recorded_at: now,
          applied_at: draft.applied_at,
          effect,
        },
        trx,
      );
      if (!inserted) continue;
      recorded += 1;
      effects.push(effect);
      current = [...current, { ...normalizeDraft(draft), id: 0 } as MoneyEventRow];
    }
    const after = payment && this.standingOf(payment, current);
    return { recorded, waiting: !(payment && isPaid), before, after, effects };
  }

  /** The subject a staff refund is known by in the ledger: the provider's refund id, or ours when there is none (CoinPal's manual refund). */
  staffRefundSubject(refund: { id: number; provider_refund_id: string | null }): string {
    return refund.provider_refund_id ?? `refund:${refund.id}`;
  }

  /** Subjects of the payment's refund rows and their final amounts: which provider refund is which. */
  async refundSubjects(paymentId: number, trx: Knex.Transaction): Promise<Array<{ subject: string; status: string; amount: number }>> {
    return (await this.rowsOfPayment(paymentId, trx))
      .filter((row) => row.kind === 'refund')
      .map((row) => ({ subject: row.subject, status: row.status, amount: row.amount_minor }));
  }

  /** Applies the payment's rows recorded before it was paid, oldest first, each with its effect. */
  private async applyWaiting(payment: PaymentRow, trx: Knex.Transaction): Promise<void> {
    const now = this.clock.now();
    const rows = await this.rowsOfPayment(payment.id, trx);
    const applied = rows.filter((row) => row.applied_at !== null);
    // The payment row first: the rest apply to a paid payment.
    const pending = rows.filter((row) => row.applied_at === null).sort((a, b) => (a.kind === 'payment' ? -1 : b.kind === 'payment' ? 1 : a.id - b.id));
    let current = applied;
    for (const row of pending) {
      const was = this.standingOf(payment, current);
      const next = [...current, { ...row, applied_at: now }];
      const after = this.standingOf(payment, next);
      const effect = effectOf(
        was.access,
        after.access,
        { kind: row.kind, subject: row.subject, status: row.status, amount: row.amount_minor },
        was.refunded,
        after.refunded,
      );
      await this.events.markApplied(row.id, { applied_at: now, effect, order_id: payment.order_id }, trx);
      current = next;
    }
  }

  /**
   * Serializes a waiting event against the payment that settles it: both take these locks (the
   * provider's names of the payment), so a refund recorded as waiting while its payment is being
   * paid is either seen by that payment or finds it paid.
   */
  async lockNames(provider: string, names: string[], trx: Knex.Transaction): Promise<void> {
    await this.events.lockNames(
      names.map((name) => `money:${provider}:${name}`),
      trx,
    );
  }

  /** The order's money events, oldest first (the admin order page). */
  async ofOrder(orderId: number): Promise<LedgerEventView[]> {
    return (await this.events.ofOrder(orderId)).map(toView);
  }

  /** Events still waiting for their payment, oldest first (the dashboard, until they are applied). */
  async waiting(limit = 50): Promise<LedgerEventView[]> {
    return (await this.events.waiting(limit)).map(toView);
  }

  /**
   * Money that went back (refunds and chargebacks) per UTC day of [from, to), per order, as the
   * ledger's rules count it: each payment's standing after the day's rows less before them.
   */
  async moneyBackByDay(from: Date, to: Date): Promise<Array<{ orderId: number; day: string; amount: Money }>> {
    const payments = await this.events.paymentsWithMoneyBackIn(from, to);
    const result: Array<{ orderId: number; day: string; amount: Money }> = [];
    for (const payment of payments) {
      // Money only: credit given back (a `credit` refund row) and a payment wholly paid by credit moved no money.
      const own = (payment.moneyEvents ?? []).filter((row) => row.provider !== 'credit');
      const back = (until: Date) => {
        const standing = this.standingOf(
          payment,
          own.filter((row) => row.applied_at! < until),
        );
        return standing.refunded + standing.chargedBack;
      };
      const days = [
        ...new Set(
          own
            .filter((row) => row.applied_at! >= from && row.applied_at! < to && row.kind !== 'payment')
            .map((row) => row.applied_at!.toISOString().slice(0, 10)),
        ),
      ];
      for (const day of days) {
        const start = new Date(`${day}T00:00:00.000Z`);
        const amount = back(new Date(start.getTime() + 86_400_000)) - back(start);
        if (amount !== 0) result.push({ orderId: Number(payment.order_id), day, amount: money(amount, payment.currency as CurrencyCode) });
      }
    }
    return result;
  }

  /** What went back of each order (refunds and chargebacks), by the ledger's rules; orders with nothing back may be left out. */
  async refundedByOrder(orderIds: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    if (orderIds.length === 0) return result;
    const withRows = await this.events.ordersWithMoneyBack(orderIds);
    for (const orderId of withRows) {
      const standing = await this.standingOfOrder(Number(orderId));
      if (standing.refunded + standing.chargedBack > 0) result.set(Number(orderId), standing.refunded + standing.chargedBack);
    }
    return result;
  }
}

function normalizeDraft(draft: { kind: LedgerKind; subject: string; status: string; amount_minor: number; applied_at: Date | null }) {
  return { ...draft, amount_minor: Number(draft.amount_minor) };
}

function toView(row: MoneyEventRow): LedgerEventView {
  return {
    id: row.id,
    provider: row.provider,
    eventKey: row.event_key,
    eventType: row.event_type,
    orderId: row.order_id,
    paymentId: row.payment_id,
    waitingFor: row.waiting_for,
    kind: row.kind,
    subject: row.subject,
    status: row.status,
    amount: row.currency ? money(row.amount_minor, row.currency.trim() as CurrencyCode) : null,
    recordedAt: row.recorded_at,
    appliedAt: row.applied_at,
    effect: row.effect as LedgerEffect | null,
  };
}
