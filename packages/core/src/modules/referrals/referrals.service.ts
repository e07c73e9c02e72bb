/**
 * Referrals: each buyer's public referral code (`users.referral_code`, made at first read) and
 * who invited whom (`referrals`), with the inviter's reward granted or refused. Moving money is
 * the referral flow's (flows/referral.flow.ts): it calls this inside its own transaction.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import type { Money } from '../../shared/money.js';
import { TOKENS } from '../../shared/tokens.js';
import { ReferralModel } from './models/referral.model.js';
import { canonicalCode, newReferralCode, type RefusedReason } from './referral-rules.js';

/** Tries before giving up on a fresh code (each collision is about one in 10^11 per existing code). */
const CODE_TRIES = 5;
const UNIQUE_VIOLATION = '23505';

export interface ReferralCounts {
  /** Buyers who signed up by the inviter's link. */
  invited: number;
  /** Of them, those whose payment earned the inviter credit. */
  rewarded: number;
}

@injectable()
export class ReferralsService {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /** The buyer's referral code, made (random, unique) the first time it is read. */
  async codeOf(userId: number): Promise<string> {
    for (let attempt = 0; attempt < CODE_TRIES; attempt += 1) {
      const row = await this.knex('users').select('referral_code').where({ id: userId }).first();
      if (!row) throw new Error(`no user ${userId}`);
      if (row.referral_code) return row.referral_code as string;
      try {
        // `whereNull`: two first reads at once both try; the one that lost reads the winner's code.
        await this.knex('users').update({ referral_code: newReferralCode() }).where({ id: userId }).whereNull('referral_code');
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      }
    }
    throw new Error(`could not make a unique referral code for user ${userId}`);
  }

  /** The buyer whose code this is (any case), or undefined: an unknown or malformed code names nobody. */
  async inviterByCode(code: string | null | undefined, trx?: Knex.Transaction): Promise<number | undefined> {
    const canonical = canonicalCode(code);
    if (!canonical) return undefined;
    const row = await (trx ?? this.knex)('users').select('id').where({ referral_code: canonical }).first();
    return row ? Number(row.id) : undefined;
  }

  /**
   * Records that `inviteeId` signed up by `inviterId`'s link: pending, or refused at once with
   * `refusedReason`. A buyer has one inviter: a second record writes nothing (undefined).
   */
  async record(link: { inviterId: number; inviteeId: number; refusedReason?: RefusedReason }, trx: Knex.Transaction): Promise<ReferralModel | undefined> {
    if (link.inviterId === link.inviteeId) return undefined;
    const now = this.clock.now();
    const [row] = (await trx('referrals')
      .insert({
        inviter_user_id: link.inviterId,
        invitee_user_id: link.inviteeId,
        state: link.refusedReason ? 'refused' : 'pending',
        refused_reason: link.refusedReason ?? null,
        created_at: now,
        decided_at: link.refusedReason ? now : null,
      })
      .onConflict('invitee_user_id')
      .ignore()
      .returning('*')) as ReferralModel[];
    return row;
  }

  /** The referral that brought this buyer, if any. */
  async ofInvitee(inviteeId: number, trx?: Knex.Transaction): Promise<ReferralModel | undefined> {
    return ReferralModel.query(trx ?? this.knex).findOne({ invitee_user_id: inviteeId });
  }

  async counts(inviterId: number): Promise<ReferralCounts> {
    const rows = (await this.knex('referrals').select('state').count({ n: '*' }).where({ inviter_user_id: inviterId }).groupBy('state')) as Array<{
      state: string;
      n: string;
    }>;
    const of = (state: string) => Number(rows.find((row) => row.state === state)?.n ?? 0);
    return { invited: rows.reduce((sum, row) => sum + Number(row.n), 0), rewarded: of('rewarded') };
  }

  /** Pending referrals after the id `after`, oldest first (a page of the grant job's pass). */
  async pendingIds(limit: number, after = 0): Promise<number[]> {
    const rows = await this.knex('referrals').select('id').where({ state: 'pending' }).where('id', '>', after).orderBy('id').limit(limit);
    return rows.map((row) => Number(row.id));
  }

  /** The referral, locked for the caller's transaction, while it is still pending (undefined otherwise). */
  async lockPending(id: number, trx: Knex.Transaction): Promise<ReferralModel | undefined> {
    return ReferralModel.query(trx).findById(id).where({ state: 'pending' }).forUpdate();
  }

  /**
   * Holds the inviter's referral decisions one at a time for the caller's transaction, so two
   * rewards decided at once cannot both fit under the monthly cap's last place.
   */
  async lockInviter(inviterId: number, trx: Knex.Transaction): Promise<void> {
    await trx.raw('select pg_advisory_xact_lock(?, ?)', [REFERRAL_INVITER_LOCK, inviterId]);
  }

  /** How many of the inviter's referrals were rewarded since `since`. */
  async rewardedSince(inviterId: number, since: Date, trx: Knex.Transaction): Promise<number> {
    const [row] = (await trx('referrals')
      .count({ n: '*' })
      .where({ inviter_user_id: inviterId, state: 'rewarded' })
      .where('decided_at', '>=', since)) as Array<{ n: string }>;
    return Number(row?.n ?? 0);
  }

  /** The inviter earned `amount` from the invitee's payment `paymentId`. */
  async markRewarded(id: number, reward: { paymentId: number; amount: Money }, trx: Knex.Transaction): Promise<void> {
    await trx('referrals').where({ id, state: 'pending' }).update({
      state: 'rewarded',
      decided_at: this.clock.now(),
      reward_payment_id: reward.paymentId,
      reward_minor: reward.amount.amount,
      reward_currency: reward.amount.currency,
    });
  }

  async markRefused(id: number, reason: RefusedReason, trx: Knex.Transaction, paymentId?: number): Promise<void> {
    await trx('referrals')
      .where({ id, state: 'pending' })
      .update({ state: 'refused', refused_reason: reason, decided_at: this.clock.now(), reward_payment_id: paymentId ?? null });
  }
}

/** Advisory lock namespace (with the inviter's id): one referral decision of an inviter at a time. */
const REFERRAL_INVITER_LOCK = 0x7ef3;
