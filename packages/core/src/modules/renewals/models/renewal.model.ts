import { Model } from 'objection';

/**
 * A unit's automatic-renewal choice (`auto_renewals`), keyed by order item and unit. Its links (the
 * order item, the user, the payment that saved the card) are other modules' rows, so no relation.
 */
export class AutoRenewalModel extends Model {
  static override tableName = 'auto_renewals';
  static override idColumn = ['order_item_id', 'unit'];
  order_item_id!: number;
  unit!: number;
  user_id!: number;
  enabled!: boolean;
  /** The card payment that saved the card; its PaymentIntent names the customer and the card. */
  source_payment_id!: number | null;
  customer_id!: string | null;
  payment_method_id!: string | null;
  card_brand!: string | null;
  card_last4!: string | null;
  /** A setup-mode Checkout Session the buyer was sent to for a new card (dunning), read before the next try. */
  card_update_session_id!: string | null;
  created_at!: Date;
  updated_at!: Date;
}

/** One period's reminder and charge attempts of a subscription (`renewal_charges`). Subscription, order and payment are other modules' rows. */
export class RenewalChargeModel extends Model {
  static override tableName = 'renewal_charges';
  id!: number;
  subscription_id!: number;
  /** The end date this charge renews from: the period it is about. */
  period_end!: Date;
  /** auto: the saved card is charged; manual: the buyer got a link to pay the renewal order. */
  kind!: 'auto' | 'manual';
  status!: 'scheduled' | 'charging' | 'retrying' | 'requires_action' | 'succeeded' | 'failed' | 'cancelled' | 'manual';
  amount_minor!: number;
  currency!: string;
  card_last4!: string | null;
  order_id!: number | null;
  payment_id!: number | null;
  attempts!: number;
  failures!: number;
  payment_intent_id!: string | null;
  decline_code!: string | null;
  next_attempt_at!: Date | null;
  reminded_at!: Date;
  reminder_key!: string;
  created_at!: Date;
  updated_at!: Date;
}
