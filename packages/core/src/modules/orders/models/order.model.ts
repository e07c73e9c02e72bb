import { Model, type RelationMappings } from 'objection';

export class OrderItemModel extends Model {
  static override tableName = 'order_items';
  id!: number;
  order_id!: number;
  platform_id!: number;
  duration_id!: number;
  plan_type_id!: number;
  months!: number;
  quantity!: number;
  unit_price_minor!: number;
  currency!: string;
  needs_invitation!: boolean;
  invitation_email!: string | null;
  platform_name!: string;
  type_name!: string;
  duration_name!: string;
  platform_logo_base!: string;
  platform_color_one!: string;
  platform_category!: number;
  subscription_id!: number | null;
  applied_at!: Date | null;
  /** A renewal order (automatic renewal, or its payment link): the subscription this item extends. */
  renews_subscription_id!: number | null;
  /** The order the item belongs to, when it was fetched. */
  order?: OrderModel;

  static override relationMappings = (): RelationMappings => ({
    order: { relation: Model.BelongsToOneRelation, modelClass: OrderModel, join: { from: 'order_items.order_id', to: 'orders.id' } },
  });
}

export class OrderModel extends Model {
  static override tableName = 'orders';
  id!: number;
  user_id!: number;
  email!: string;
  state!: number;
  currency!: string;
  total_minor!: number;
  /** The catalog price before the discount (issue 37); total_minor = subtotal_minor − discount_minor. */
  subtotal_minor!: number;
  discount_minor!: number;
  /** 'code' (a promotion code) or 'welcome' (a referred buyer's first order); null without a discount. */
  discount_source!: string | null;
  /** The promotion code on the order (upper case), when the discount is one. */
  promo_code!: string | null;
  /** What the same options sell for in EUR, recorded when the order is made (admin totals are in EUR). */
  total_eur_minor!: number;
  payment_method!: number | null;
  language_id!: number;
  created_at!: Date;
  updated_at!: Date;
  paid_at!: Date | null;
  completed_at!: Date | null;
  items?: OrderItemModel[];

  static override relationMappings = (): RelationMappings => ({
    items: { relation: Model.HasManyRelation, modelClass: OrderItemModel, join: { from: 'orders.id', to: 'order_items.order_id' } },
  });
}

/** An order item's columns, as a statement run without objection (`sqlRows`) answers them. */
export type OrderItemRow = Omit<OrderItemModel, keyof Model | 'order'>;
/** An order's columns, with its items when they were read. The models have the same fields. */
export type OrderRow = Omit<OrderModel, keyof Model | 'items'> & { items?: OrderItemRow[] };
