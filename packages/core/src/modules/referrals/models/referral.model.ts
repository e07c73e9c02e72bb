import { Model } from 'objection';
import type { RefusedReason } from '../referral-rules.js';

export type ReferralState = 'pending' | 'rewarded' | 'refused';

/** Who invited whom (`referrals`, migrations 20261216000050 and …000300); the users are identity's rows. */
export class ReferralModel extends Model {
  static override tableName = 'referrals';
  id!: number;
  inviter_user_id!: number;
  invitee_user_id!: number;
  state!: ReferralState;
  refused_reason!: RefusedReason | null;
  created_at!: Date;
  decided_at!: Date | null;
  reward_payment_id!: number | null;
  reward_minor!: number | null;
  reward_currency!: 'EUR' | 'KRW' | null;
}
