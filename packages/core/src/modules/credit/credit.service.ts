/**
 * Buyer credit: money the shop owes a buyer, per currency, kept as `credit_entries` rows (the
 * buyer's side of the money ledger). The rules are credit-rules.ts; this service writes rows,
 * each under the buyer's advisory lock and inside the caller's transaction, each named by a key
 * the database keeps unique, so a retried job, a replayed notification or a double click writes
 * nothing twice.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import { addMonths } from '../../shared/clock.js';
import { CURRENCIES, money, type CurrencyCode, type Money } from '../../shared/money.js';
import { TOKENS } from '../../shared/tokens.js';
import { CREDIT_MONTHS } from '../../promises/index.js';
import { creditStanding, expiryKey, LOT_KINDS, lotOfExpiryKey, type CreditKind, type CreditRow, type CreditStanding } from './credit-rules.js';
import { CreditEntryModel } from './models/credit-entry.model.js';

/** Advisory lock namespace (with the buyer's id): one writer of a buyer's credit at a time. */
const CREDIT_LOCK = 0xc4ed;

/** What a credit row is about, beyond its buyer and amount. */
export interface CreditLinks {
  /** Names the fact; a second row with the same key is not written (e.g. `spend:payment:42`). */
  key: string;
  orderId?: number;
  paymentId?: number;
  referralId?: number;
}

export interface CreditBalance {
  currency: CurrencyCode;
  /** What the buyer can spend now. */
  available: Money;
  /** Earned in all (referral rewards), spent or not. */
  earned: Money;
}

@injectable()
export class CreditService {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /** The buyer's credit in each currency they have any in (none: an empty list). */
  async balances(userId: number, trx?: Knex.Transaction): Promise<CreditBalance[]> {
    const rows = await CreditEntryModel.query(trx ?? this.knex)
      .where({ user_id: userId })
      .orderBy('id');
    const now = this.clock.now();
    return (Object.keys(CURRENCIES) as CurrencyCode[]).flatMap((currency) => {
      const mine = rows.filter((row) => row.currency === currency);
      if (mine.length === 0) return [];
      const standing = creditStanding(mine.map(toRule), now);
      return [{ currency, available: money(standing.available, currency), earned: money(standing.earned, currency) }];
    });
  }

  /** What the buyer can spend in `currency` now. */
  async available(userId: number, currency: CurrencyCode, trx?: Knex.Transaction): Promise<Money> {
    const standing = await this.standing(userId, currency, trx ?? this.knex);
    return money(standing.available, currency);
  }

  /** A referral reward: a lot of `amount`, spendable for CREDIT_MONTHS. False when `key` was written before. */
  earn(userId: number, amount: Money, links: CreditLinks, trx: Knex.Transaction): Promise<boolean> {
    return this.addLot(userId, 'earned', amount, links, trx);
  }

  /**
   * Credit given back: `returned` by a refund of an order paid partly with credit, `released` by a
   * checkout that was never paid. A new lot, spendable for CREDIT_MONTHS from now.
   */
  giveBack(userId: number, kind: 'returned' | 'released', amount: Money, links: CreditLinks, trx: Knex.Transaction): Promise<boolean> {
    return this.addLot(userId, kind, amount, links, trx);
  }

  /**
   * Spends up to `upTo` of the buyer's credit in its currency (what is available, if less); answers
   * what was spent (0 when none). Asked again with the same key, it answers the first spend's
   * amount and writes nothing. Expired lots are written off first.
   */
  async spend(
    userId: number,
    upTo: Money,
    links: CreditLinks,
    trx: Knex.Transaction,
    /** How much of what is available to take, decided under the buyer's lock (e.g. leaving a provider's minimum to pay). */
    choose: (available: number) => number = (available) => available,
  ): Promise<Money> {
    await this.lock(userId, trx);
    const earlier = await CreditEntryModel.query(trx).findOne({ entry_key: links.key });
    if (earlier) return money(Number(earlier.amount_minor), upTo.currency);
    const standing = await this.settleDue(userId, upTo.currency, trx);
    const amount = Math.min(standing.available, Math.max(0, upTo.amount), Math.max(0, choose(standing.available)));
    if (amount > 0) await this.insert(userId, 'spent', money(amount, upTo.currency), null, links, trx);
    return money(amount, upTo.currency);
  }

  /** What a spend with this key took (0 when there was none). */
  async spentUnder(key: string, trx?: Knex.Transaction): Promise<number> {
    const row = await CreditEntryModel.query(trx ?? this.knex).findOne({ entry_key: key, kind: 'spent' });
    return row ? Number(row.amount_minor) : 0;
  }

  /** The spend written under this key: whose credit it took and how much (undefined when there was none). */
  async spendOf(key: string, trx?: Knex.Transaction): Promise<{ userId: number; amount: Money } | undefined> {
    const row = await CreditEntryModel.query(trx ?? this.knex).findOne({ entry_key: key, kind: 'spent' });
    return row ? { userId: Number(row.user_id), amount: money(Number(row.amount_minor), row.currency) } : undefined;
  }

  /** The credit rows about a payment (its spend, release, spend again, the returns of its refunds), oldest first. */
  async ofPayment(paymentId: number, trx?: Knex.Transaction): Promise<Array<{ kind: CreditKind; amount: number; key: string }>> {
    const rows = await CreditEntryModel.query(trx ?? this.knex)
      .where({ payment_id: paymentId })
      .orderBy('id');
    return rows.map((row) => ({ kind: row.kind, amount: Number(row.amount_minor), key: row.entry_key }));
  }

  /** Whether a row with this key was written (a release, a return: a fact that happened once). */
  async written(key: string, trx?: Knex.Transaction): Promise<boolean> {
    return (await CreditEntryModel.query(trx ?? this.knex).findOne({ entry_key: key })) !== undefined;
  }

  /** The `credit-expire` job: every lot past its expiry is written off (what it still held). */
  async expireDue(limit = 500): Promise<{ expired: number; buyers: number }> {
    const due = await this.knex('credit_entries as lot')
      .distinct('lot.user_id', 'lot.currency')
      .whereIn('lot.kind', LOT_KINDS)
      .where('lot.expires_at', '<=', this.clock.now())
      .whereNotExists((sub) => sub.from('credit_entries as written').whereRaw("written.entry_key = 'expire:lot:' || lot.id"))
      .limit(limit);
    let expired = 0;
    for (const { user_id: userId, currency } of due as Array<{ user_id: number; currency: CurrencyCode }>) {
      expired += await this.knex.transaction(async (trx) => {
        await this.lock(Number(userId), trx);
        const before = await this.standing(Number(userId), currency, trx);
        await this.settleDue(Number(userId), currency, trx);
        return before.due.length;
      });
    }
    return { expired, buyers: due.length };
  }

  /** What the shop owes its buyers in credit, per currency (the dashboard's "outstanding credit"). */
  async outstanding(): Promise<Money[]> {
    const rows = await this.knex('credit_entries')
      .select('currency')
      .sum({ owed: this.knex.raw("case when kind in ('earned', 'returned', 'released') then amount_minor else -amount_minor end") })
      .groupBy('currency');
    return (rows as Array<{ currency: CurrencyCode; owed: string }>).map((row) => money(Number(row.owed), row.currency));
  }

  private async addLot(userId: number, kind: CreditKind, amount: Money, links: CreditLinks, trx: Knex.Transaction): Promise<boolean> {
    if (amount.amount <= 0) return false;
    await this.lock(userId, trx);
    return this.insert(userId, kind, amount, addMonths(this.clock.now(), CREDIT_MONTHS), links, trx);
  }

  /** Writes off the buyer's lots past their expiry (one `expired` row each); answers the standing after. */
  private async settleDue(userId: number, currency: CurrencyCode, trx: Knex.Transaction): Promise<CreditStanding> {
    const standing = await this.standing(userId, currency, trx);
    for (const { lotId, amount } of standing.due) {
      await this.insert(userId, 'expired', money(amount, currency), null, { key: expiryKey(lotId) }, trx);
    }
    return standing.due.length === 0 ? standing : { ...standing, due: [] };
  }

  private async standing(userId: number, currency: CurrencyCode, db: Knex | Knex.Transaction): Promise<CreditStanding> {
    const rows = await CreditEntryModel.query(db).where({ user_id: userId, currency }).orderBy('id');
    return creditStanding(rows.map(toRule), this.clock.now());
  }

  private async insert(userId: number, kind: CreditKind, amount: Money, expiresAt: Date | null, links: CreditLinks, trx: Knex.Transaction): Promise<boolean> {
    const inserted = await trx('credit_entries')
      .insert({
        user_id: userId,
        currency: amount.currency,
        kind,
        amount_minor: amount.amount,
        expires_at: expiresAt,
        entry_key: links.key,
        order_id: links.orderId ?? null,
        payment_id: links.paymentId ?? null,
        referral_id: links.referralId ?? null,
        created_at: this.clock.now(),
      })
      .onConflict('entry_key')
      .ignore()
      .returning('id');
    return inserted.length > 0;
  }

  private async lock(userId: number, trx: Knex.Transaction): Promise<void> {
    await trx.raw('select pg_advisory_xact_lock(?, ?)', [CREDIT_LOCK, userId]);
  }
}

function toRule(row: CreditEntryModel): CreditRow {
  return {
    id: Number(row.id),
    kind: row.kind,
    amount: Number(row.amount_minor),
    expiresAt: row.expires_at,
    writesOffLot: row.kind === 'expired' ? lotOfExpiryKey(row.entry_key) : undefined,
  };
}
