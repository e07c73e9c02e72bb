import { Model, type RelationMappings } from 'objection';
import type { LedgerKind } from '../money-ledger.js';

/** `double_payment`: the shop's own refund of an order's second successful payment (issue 34). */
export type RefundSource = 'staff' | 'provider' | 'chargeback' | 'double_payment';
export type RefundStatus = 'pending' | 'succeeded' | 'failed';
export type DisputeStatus = 'open' | 'won' | 'lost';

/** One attempt to pay an order with a provider (`payments`), with the money that went back and the disputes about it. */
export class PaymentModel extends Model {
  static override tableName = 'payments';
  id!: number;
  order_id!: number;
  provider!: string;
  method!: number;
  reference!: string | null;
  provider_reference!: string | null;
  /** The provider's id of the money (Stripe's payment_intent), stored from the signed paid event. */
  provider_payment_id!: string | null;
  amount_minor!: number;
  currency!: string;
  /** Stripe's fingerprint of the card that paid (migration 20261216000300): the referral guard compares it. */
  card_fingerprint!: string | null;
  status!: 'pending' | 'paid' | 'failed' | 'expired' | 'refunded';
  checkout_url!: string | null;
  /** The buyer ticked "Renew automatically": this card payment saves the card (migration 20261212000100). */
  save_card!: boolean;
  /** The part of `amount_minor` paid from the buyer's credit; the provider is asked for the rest (migration 20261216000200). */
  credit_minor!: number;
  created_at!: Date;
  updated_at!: Date;
  settled_at!: Date | null;
  refunds?: RefundModel[];
  disputes?: PaymentDisputeModel[];
  /** The payment's rows in the money ledger, when they were fetched. */
  moneyEvents?: MoneyEventModel[];

  static override relationMappings = (): RelationMappings => ({
    refunds: { relation: Model.HasManyRelation, modelClass: RefundModel, join: { from: 'payments.id', to: 'refunds.payment_id' } },
    disputes: { relation: Model.HasManyRelation, modelClass: PaymentDisputeModel, join: { from: 'payments.id', to: 'payment_disputes.payment_id' } },
    moneyEvents: { relation: Model.HasManyRelation, modelClass: MoneyEventModel, join: { from: 'payments.id', to: 'money_events.payment_id' } },
  });
}

/** One amount given back (`refunds`): by staff through the provider, on the provider's side, a chargeback, or a second payment's. */
export class RefundModel extends Model {
  static override tableName = 'refunds';
  id!: number;
  order_id!: number;
  payment_id!: number;
  source!: RefundSource;
  status!: RefundStatus;
  amount_minor!: number;
  /** The part of `amount_minor` given back as credit (first, up to the credit the payment used); the provider gives back the rest. */
  credit_minor!: number;
  fee_minor!: number;
  currency!: string;
  provider_refund_id!: string | null;
  manual_reference!: string | null;
  reason!: string | null;
  override_window!: boolean;
  actor_user_id!: number | null;
  actor_label!: string | null;
  error!: string | null;
  created_at!: Date;
  updated_at!: Date;
  completed_at!: Date | null;
  payment?: PaymentModel;

  static override relationMappings = (): RelationMappings => ({
    payment: { relation: Model.BelongsToOneRelation, modelClass: PaymentModel, join: { from: 'refunds.payment_id', to: 'payments.id' } },
  });
}

/** One provider dispute about a payment (`payment_disputes`), whichever of its events came first. */
export class PaymentDisputeModel extends Model {
  static override tableName = 'payment_disputes';
  id!: number;
  provider!: string;
  dispute_id!: string;
  payment_id!: number;
  status!: DisputeStatus;
  opened_at!: Date | null;
  closed_at!: Date | null;
  updated_at!: Date;
  payment?: PaymentModel;

  static override relationMappings = (): RelationMappings => ({
    payment: { relation: Model.BelongsToOneRelation, modelClass: PaymentModel, join: { from: 'payment_disputes.payment_id', to: 'payments.id' } },
  });
}

/**
 * One money event of the ledger (`money_events`): a payment, refund, dispute or chargeback as a
 * provider reported it, applied to its payment or waiting for it (ledger.service.ts).
 */
export class MoneyEventModel extends Model {
  static override tableName = 'money_events';
  id!: number;
  provider!: string;
  /** The provider's id of the event with the part it is about: each is recorded once. */
  event_key!: string;
  event_type!: string;
  order_id!: number | null;
  payment_id!: number | null;
  /** While waiting: the provider's name of the payment it waits for. */
  waiting_for!: string | null;
  kind!: LedgerKind;
  subject!: string;
  status!: string;
  amount_minor!: number;
  currency!: string | null;
  recorded_at!: Date;
  /** Null while it waits for its payment to be paid. */
  applied_at!: Date | null;
  effect!: string | null;
  payment?: PaymentModel | null;

  static override relationMappings = (): RelationMappings => ({
    payment: { relation: Model.BelongsToOneRelation, modelClass: PaymentModel, join: { from: 'money_events.payment_id', to: 'payments.id' } },
  });
}

/** A payment's columns, as a statement run without objection (`sqlRows`) answers them. */
export type PaymentRow = Omit<PaymentModel, keyof Model | 'refunds' | 'disputes' | 'moneyEvents'>;
/** A money event's columns. */
export type MoneyEventRow = Omit<MoneyEventModel, keyof Model | 'payment'>;
/** A refund's columns. */
export type RefundRow = Omit<RefundModel, keyof Model | 'payment'>;
