import { Model, type RelationMappings } from 'objection';

/** `refunded`: ended early because its money went back (the slot is free at once). */
export type SubscriptionStatus = 'active' | 'ended' | 'replaced' | 'refunded';

export class SubscriptionModel extends Model {
  static override tableName = 'subscriptions';
  id!: number;
  user_id!: number;
  order_item_id!: number;
  /** Which unit of the order item (0 when the quantity is 1). */
  unit!: number;
  platform_account_id!: number;
  /** 0 is the whole account, otherwise the profile number. */
  slot!: number;
  starts_at!: Date;
  ends_at!: Date;
  status!: SubscriptionStatus;
  replaced_from_id!: number | null;
  reminded_at!: Date | null;
  /** Set while a payment dispute withholds access: the slot stays held, the panel shows no credentials. */
  suspended_at!: Date | null;
  ended_at!: Date | null;
  /** Dunning: the slot stays held past `ends_at` (without access) until a renewal charge is retried for the last time. */
  held_until!: Date | null;
  created_at!: Date;
  updated_at!: Date;
  /** The subscription this one replaced (a move to another account), when it did. */
  replacedFrom?: SubscriptionModel | null;
  /** The renewal orders that extended this subscription. */
  renewals?: SubscriptionRenewalModel[];

  static override relationMappings = (): RelationMappings => ({
    replacedFrom: {
      relation: Model.BelongsToOneRelation,
      modelClass: SubscriptionModel,
      join: { from: 'subscriptions.replaced_from_id', to: 'subscriptions.id' },
    },
    renewals: {
      relation: Model.HasManyRelation,
      modelClass: SubscriptionRenewalModel,
      join: { from: 'subscriptions.id', to: 'subscription_renewals.subscription_id' },
    },
  });
}

/** One renewal order's unit that extended a subscription (`subscription_renewals`); `refunded_at` once its months were taken back. */
export class SubscriptionRenewalModel extends Model {
  static override tableName = 'subscription_renewals';
  id!: number;
  subscription_id!: number;
  order_item_id!: number;
  unit!: number;
  previous_ends_at!: Date;
  ends_at!: Date;
  created_at!: Date;
  refunded_at!: Date | null;
  subscription?: SubscriptionModel;

  static override relationMappings = (): RelationMappings => ({
    subscription: {
      relation: Model.BelongsToOneRelation,
      modelClass: SubscriptionModel,
      join: { from: 'subscription_renewals.subscription_id', to: 'subscriptions.id' },
    },
  });
}

/** A subscription's columns, as a statement run without objection (`sqlRows`) answers them. */
export type SubscriptionRow = Omit<SubscriptionModel, keyof Model | 'replacedFrom' | 'renewals'>;
