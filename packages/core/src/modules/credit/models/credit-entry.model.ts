import { Model } from 'objection';
import type { CreditKind } from '../credit-rules.js';

/** One fact of a buyer's credit (`credit_entries`), never changed once written. Order, payment and referral are other modules' rows. */
export class CreditEntryModel extends Model {
  static override tableName = 'credit_entries';
  id!: number;
  user_id!: number;
  currency!: 'EUR' | 'KRW';
  kind!: CreditKind;
  amount_minor!: number;
  expires_at!: Date | null;
  entry_key!: string;
  order_id!: number | null;
  payment_id!: number | null;
  referral_id!: number | null;
  created_at!: Date;
}
