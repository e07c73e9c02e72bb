/**
 * Automatic renewal's own records: each subscription's choice (`auto_renewals`, keyed by the order
 * item unit a subscription keeps through renewals and replacements, so a choice made at checkout
 * exists before its subscription does) and each period's reminder and charge attempts
 * (`renewal_charges`, one row per subscription and period end). Plain data in and out; what the
 * rows mean, and every call to a provider, is `flows/renewal.flow.ts`.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Model } from 'objection';
import type { Clock } from '../../shared/clock.js';
import { TOKENS } from '../../shared/tokens.js';
import { AutoRenewalModel, RenewalChargeModel } from './models/renewal.model.js';

/** A subscription's key in `auto_renewals`: its order item and unit. */
export interface UnitKey {
  orderItemId: number;
  unit: number;
}

export interface AutoRenewal extends UnitKey {
  userId: number;
  enabled: boolean;
  /** The card payment that saved the card (its PaymentIntent names it). */
  sourcePaymentId: number | null;
  card: { customerId: string; paymentMethodId: string; brand: string | null; last4: string | null } | null;
  cardUpdateSessionId: string | null;
  updatedAt: Date;
}

export type ChargeStatus = RenewalChargeModel['status'];

export interface RenewalCharge {
  id: number;
  subscriptionId: number;
  periodEnd: Date;
  kind: 'auto' | 'manual';
  status: ChargeStatus;
  amountMinor: number;
  currency: string;
  cardLast4: string | null;
  orderId: number | null;
  paymentId: number | null;
  attempts: number;
  failures: number;
  paymentIntentId: string | null;
  declineCode: string | null;
  nextAttemptAt: Date | null;
  remindedAt: Date;
  reminderKey: string;
  updatedAt: Date;
}

export type NewRenewalCharge = Pick<
  RenewalCharge,
  'subscriptionId' | 'periodEnd' | 'kind' | 'status' | 'amountMinor' | 'currency' | 'cardLast4' | 'nextAttemptAt' | 'reminderKey'
>;

export type ChargePatch = Partial<
  Pick<RenewalCharge, 'status' | 'orderId' | 'paymentId' | 'attempts' | 'failures' | 'paymentIntentId' | 'declineCode' | 'nextAttemptAt'>
>;

/** The charge statuses that still hold the period open (a charge may still come). */
export const OPEN_CHARGE_STATUSES: readonly ChargeStatus[] = ['scheduled', 'charging', 'retrying', 'requires_action'];

type AutoRenewalRow = Omit<AutoRenewalModel, keyof Model>;
type ChargeRow = Omit<RenewalChargeModel, keyof Model>;

const nullableId = (value: number | string | null) => (value === null ? null : Number(value));

function toAutoRenewal(row: AutoRenewalRow): AutoRenewal {
  return {
    orderItemId: Number(row.order_item_id),
    unit: row.unit,
    userId: Number(row.user_id),
    enabled: row.enabled,
    sourcePaymentId: nullableId(row.source_payment_id),
    card:
      row.customer_id && row.payment_method_id
        ? { customerId: row.customer_id, paymentMethodId: row.payment_method_id, brand: row.card_brand, last4: row.card_last4 }
        : null,
    cardUpdateSessionId: row.card_update_session_id,
    updatedAt: row.updated_at,
  };
}

function toCharge(row: ChargeRow): RenewalCharge {
  return {
    id: Number(row.id),
    subscriptionId: Number(row.subscription_id),
    periodEnd: row.period_end,
    kind: row.kind,
    status: row.status,
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    cardLast4: row.card_last4,
    orderId: nullableId(row.order_id),
    paymentId: nullableId(row.payment_id),
    attempts: row.attempts,
    failures: row.failures,
    paymentIntentId: row.payment_intent_id,
    declineCode: row.decline_code,
    nextAttemptAt: row.next_attempt_at,
    remindedAt: row.reminded_at,
    reminderKey: row.reminder_key,
    updatedAt: row.updated_at,
  };
}

const PATCH_COLUMNS: Record<keyof ChargePatch, string> = {
  status: 'status',
  orderId: 'order_id',
  paymentId: 'payment_id',
  attempts: 'attempts',
  failures: 'failures',
  paymentIntentId: 'payment_intent_id',
  declineCode: 'decline_code',
  nextAttemptAt: 'next_attempt_at',
};

@injectable()
export class RenewalsService {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  // The upserts and the period's insert stay on knex's builder: objection answers the object it was
  // given, also when ON CONFLICT inserted nothing or merged into another row.

  /** "Renew automatically" ticked at card payment: these units renew with the card that payment saves. */
  async optIn(units: UnitKey[], userId: number, sourcePaymentId: number, trx: Knex.Transaction): Promise<void> {
    if (units.length === 0) return;
    const now = this.clock.now();
    await trx('auto_renewals')
      .insert(
        units.map((key) => ({
          order_item_id: key.orderItemId,
          unit: key.unit,
          user_id: userId,
          enabled: true,
          source_payment_id: sourcePaymentId,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict(['order_item_id', 'unit'])
      .merge({ enabled: true, source_payment_id: sourcePaymentId, updated_at: now });
  }

  /**
   * The choices of these units (those never made are left out). Read on every panel view: knex's
   * builder, like the panel's other reads (docs/data-access.md, "Where raw SQL stays").
   */
  async settingsOf(keys: UnitKey[], trx?: Knex.Transaction): Promise<AutoRenewal[]> {
    if (keys.length === 0) return [];
    const rows: AutoRenewalRow[] = await (trx ?? this.knex)('auto_renewals').whereIn(
      ['order_item_id', 'unit'],
      keys.map((key) => [key.orderItemId, key.unit]),
    );
    return rows.map(toAutoRenewal);
  }

  async settingOf(key: UnitKey, trx?: Knex.Transaction): Promise<AutoRenewal | undefined> {
    const query = AutoRenewalModel.query(trx ?? this.knex).findById([key.orderItemId, key.unit]);
    const row = await (trx ? query.forUpdate() : query);
    return row && toAutoRenewal(row);
  }

  /** Turns a unit's automatic renewal on or off; answers whether it changed. */
  async setEnabled(key: UnitKey, userId: number, enabled: boolean, trx: Knex.Transaction): Promise<boolean> {
    const now = this.clock.now();
    const before = await this.settingOf(key, trx);
    if (before?.enabled === enabled) return false;
    if (!before && !enabled) return false;
    await trx('auto_renewals')
      .insert({ order_item_id: key.orderItemId, unit: key.unit, user_id: userId, enabled, created_at: now, updated_at: now })
      .onConflict(['order_item_id', 'unit'])
      .merge({ enabled, updated_at: now });
    return true;
  }

  async rememberCard(key: UnitKey, card: NonNullable<AutoRenewal['card']>, trx?: Knex.Transaction): Promise<void> {
    await AutoRenewalModel.query(trx ?? this.knex)
      .findById([key.orderItemId, key.unit])
      .patch({
        customer_id: card.customerId,
        payment_method_id: card.paymentMethodId,
        card_brand: card.brand,
        card_last4: card.last4,
        card_update_session_id: null,
        updated_at: this.clock.now(),
      });
  }

  async rememberCardUpdateSession(key: UnitKey, sessionId: string, trx?: Knex.Transaction): Promise<void> {
    await AutoRenewalModel.query(trx ?? this.knex)
      .findById([key.orderItemId, key.unit])
      .patch({ card_update_session_id: sessionId, updated_at: this.clock.now() });
  }

  /**
   * A save-a-card page opened for a unit without a card (renewal off until the card is saved):
   * remembered in the card-update column, which a unit with no card uses for nothing else.
   */
  async rememberSaveCardPage(key: UnitKey, userId: number, sessionId: string): Promise<void> {
    const now = this.clock.now();
    await this.knex('auto_renewals')
      .insert({
        order_item_id: key.orderItemId,
        unit: key.unit,
        user_id: userId,
        enabled: false,
        card_update_session_id: sessionId,
        created_at: now,
        updated_at: now,
      })
      .onConflict(['order_item_id', 'unit'])
      .merge({ card_update_session_id: sessionId, updated_at: now });
  }

  /** Save-a-card pages opened since `since` whose card is not known yet (off, no card, a page). */
  async saveCardPagesToRead(since: Date, limit: number): Promise<AutoRenewal[]> {
    const rows = await AutoRenewalModel.query(this.knex)
      .where({ enabled: false })
      .whereNull('payment_method_id')
      .whereNotNull('card_update_session_id')
      .where('updated_at', '>=', since)
      .orderBy('updated_at')
      .limit(limit);
    return rows.map(toAutoRenewal);
  }

  /** Choices made at checkout whose card is not known yet (the pass asks Stripe once the payment is paid). */
  async cardsToLearn(limit: number): Promise<AutoRenewal[]> {
    const rows = await AutoRenewalModel.query(this.knex)
      .where({ enabled: true })
      .whereNull('payment_method_id')
      .whereNotNull('source_payment_id')
      .whereExists((paid) => paid.select(1).from('payments').whereRaw('payments.id = auto_renewals.source_payment_id').where({ status: 'paid' }))
      .orderBy('created_at')
      .limit(limit);
    return rows.map(toAutoRenewal);
  }

  /** Units whose buyer was sent a card-update page (dunning): the pass reads what they saved there. */
  async cardUpdatesToRead(limit: number): Promise<AutoRenewal[]> {
    const rows = await AutoRenewalModel.query(this.knex).where({ enabled: true }).whereNotNull('card_update_session_id').orderBy('updated_at').limit(limit);
    return rows.map(toAutoRenewal);
  }

  /** The period's row, written once with its reminder; undefined when it existed already (nothing written). */
  async createCharge(charge: NewRenewalCharge, trx: Knex.Transaction): Promise<RenewalCharge | undefined> {
    const now = this.clock.now();
    const [row] = (await trx('renewal_charges')
      .insert({
        subscription_id: charge.subscriptionId,
        period_end: charge.periodEnd,
        kind: charge.kind,
        status: charge.status,
        amount_minor: charge.amountMinor,
        currency: charge.currency,
        card_last4: charge.cardLast4,
        next_attempt_at: charge.nextAttemptAt,
        reminded_at: now,
        reminder_key: charge.reminderKey,
        created_at: now,
        updated_at: now,
      })
      .onConflict(['subscription_id', 'period_end'])
      .ignore()
      .returning('*')) as ChargeRow[];
    return row && toCharge(row);
  }

  async chargeOfPeriod(subscriptionId: number, periodEnd: Date, trx?: Knex.Transaction): Promise<RenewalCharge | undefined> {
    const query = RenewalChargeModel.query(trx ?? this.knex).findOne({ subscription_id: subscriptionId, period_end: periodEnd });
    const row = await (trx ? query.forUpdate() : query);
    return row && toCharge(row);
  }

  /**
   * The charge, locked, while it is `charging` and no other worker holds it (SKIP LOCKED); else
   * undefined, and the caller leaves it to the worker that holds it.
   */
  async lockCharging(id: number, trx: Knex.Transaction): Promise<RenewalCharge | undefined> {
    const row = await RenewalChargeModel.query(trx).findOne({ id, status: 'charging' }).forUpdate().skipLocked();
    return row && toCharge(row);
  }

  async chargeById(id: number, trx?: Knex.Transaction): Promise<RenewalCharge | undefined> {
    const query = RenewalChargeModel.query(trx ?? this.knex).findById(id);
    const row = await (trx ? query.forUpdate() : query);
    return row && toCharge(row);
  }

  /**
   * The next automatic charge to work on, locked, skipping rows another worker holds: one whose
   * time has come, or one left `charging` (a worker died mid-charge: its attempt is sent again,
   * with the same Idempotency-Key, so Stripe answers the charge it made instead of making another).
   */
  async lockNextDue(trx: Knex.Transaction, exclude: number[]): Promise<RenewalCharge | undefined> {
    const now = this.clock.now();
    const row = (await RenewalChargeModel.query(trx)
      .where({ kind: 'auto' })
      .where((due) =>
        due.where({ status: 'charging' }).orWhere((timed) => timed.whereIn('status', ['scheduled', 'retrying']).where('next_attempt_at', '<=', now)),
      )
      .whereNotIn('id', exclude)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .forUpdate()
      .skipLocked()
      .first()) as ChargeRow | undefined;
    return row && toCharge(row);
  }

  /** Charges due by `until` (the dry run's list), soonest first. */
  async dueBy(until: Date, limit: number): Promise<RenewalCharge[]> {
    const rows = (await RenewalChargeModel.query(this.knex)
      .where({ kind: 'auto' })
      .where((due) =>
        due.where({ status: 'charging' }).orWhere((timed) => timed.whereIn('status', ['scheduled', 'retrying']).where('next_attempt_at', '<=', until)),
      )
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)) as ChargeRow[];
    return rows.map(toCharge);
  }

  /** Charges waiting for the buyer (SCA, payment link) whose renewal order may have been paid since. */
  async waitingOnBuyer(limit: number): Promise<RenewalCharge[]> {
    const rows = (await RenewalChargeModel.query(this.knex)
      .whereIn('status', ['requires_action', 'manual'])
      .whereNotNull('order_id')
      .orderBy('id')
      .limit(limit)) as ChargeRow[];
    return rows.map(toCharge);
  }

  /**
   * A subscription replaced (moved to another account): its charges waiting for their date
   * (`scheduled`, `retrying`) go with it to the new one, reminder key and all, so the period's
   * charge is made once, on the new subscription, with no second reminder. A retry's renewal order
   * named the old subscription: the next attempt makes one for the new. A charge with Stripe right
   * now (`charging`) or waiting on the buyer (`requires_action`, whose order they pay) stays.
   */
  async moveOpenCharges(fromSubscriptionId: number, toSubscriptionId: number, trx: Knex.Transaction): Promise<number> {
    return RenewalChargeModel.query(trx)
      .where({ subscription_id: fromSubscriptionId })
      .whereIn('status', ['scheduled', 'retrying'] satisfies ChargeStatus[])
      .patch({ subscription_id: toSubscriptionId, order_id: null, payment_id: null, updated_at: this.clock.now() });
  }

  async update(id: number, patch: ChargePatch, trx?: Knex.Transaction): Promise<void> {
    const columns: Record<string, unknown> = { updated_at: this.clock.now() };
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) columns[PATCH_COLUMNS[key as keyof ChargePatch]] = value;
    await RenewalChargeModel.query(trx ?? this.knex)
      .findById(id)
      .patch(columns);
  }

  /** The newest charge row of each of these subscriptions. Read on every panel view: knex's builder, as `settingsOf`. */
  async latestOf(subscriptionIds: number[]): Promise<Map<number, RenewalCharge>> {
    if (subscriptionIds.length === 0) return new Map();
    const rows = (await this.knex('renewal_charges')
      .distinctOn('subscription_id')
      .whereIn('subscription_id', subscriptionIds)
      .orderBy([{ column: 'subscription_id' }, { column: 'period_end', order: 'desc' }])) as ChargeRow[];
    return new Map(rows.map((row) => [Number(row.subscription_id), toCharge(row)]));
  }

  /** Charges whose status is one of these, updated since `since`, newest first (staff: failed renewals). */
  async withStatus(statuses: ChargeStatus[], since: Date, limit: number): Promise<RenewalCharge[]> {
    const rows = (await RenewalChargeModel.query(this.knex)
      .whereIn('status', statuses)
      .where('updated_at', '>=', since)
      .orderBy('updated_at', 'desc')
      .limit(limit)) as ChargeRow[];
    return rows.map(toCharge);
  }

  /** How many charges in these statuses changed since `since` (what `withStatus` lists, uncapped). */
  async countWithStatus(statuses: ChargeStatus[], since: Date): Promise<number> {
    const [row] = (await this.knex('renewal_charges').whereIn('status', statuses).where('updated_at', '>=', since).count({ n: '*' })) as Array<{
      n: string | number;
    }>;
    return Number(row?.n ?? 0);
  }

  /** Figures for /metrics: charge attempts made, periods renewed, declines met (all time). */
  async counts(trx?: Knex.Transaction): Promise<{ attempted: number; succeeded: number; failed: number }> {
    const [row] = (await (trx ?? this.knex)('renewal_charges')
      .where({ kind: 'auto' })
      .select(
        this.knex.raw('coalesce(sum(attempts), 0)::int as attempted'),
        this.knex.raw("count(*) filter (where status = 'succeeded')::int as succeeded"),
        this.knex.raw('coalesce(sum(failures), 0)::int as failed'),
      )) as Array<{ attempted: number; succeeded: number; failed: number }>;
    return { attempted: Number(row?.attempted ?? 0), succeeded: Number(row?.succeeded ?? 0), failed: Number(row?.failed ?? 0) };
  }
}
