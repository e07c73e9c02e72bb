/**
 * The buyer credit ledger's rules, as pure functions: what a buyer's credit rows in one currency
 * come to at a moment. No database, no clock of its own.
 *
 * Lots (earned, returned, released) add credit, each with an expiry; debits (spent, expired) take
 * it away. Spending takes the lot that expires first. Every lot expires CREDIT_MONTHS after it is
 * written, so "expires first" is also "written first", and which lot a debit drew from never
 * needs storing: what lot g still holds, once every debit so far is drawn from the lots in expiry
 * order, is
 *
 *     holds(g) = clamp(S(g) − D, 0, amount(g))
 *
 * where S(g) is the sum of g and every lot before it and D the sum of all debits. A lot past its
 * expiry that has no `expired` row yet is written off at once in what this answers (`due`), so a
 * buyer never spends credit that has expired, whether or not the expiry job has run.
 */

export type CreditKind = 'earned' | 'returned' | 'released' | 'spent' | 'expired';

export const LOT_KINDS: readonly CreditKind[] = ['earned', 'returned', 'released'];

export interface CreditRow {
  id: number;
  kind: CreditKind;
  /** Minor units, never negative: the kind says which way it goes. */
  amount: number;
  /** Lots only. */
  expiresAt: Date | null;
  /** The lot an `expired` row writes off (from its key), so a lot is written off once. */
  writesOffLot?: number;
}

export interface DueExpiry {
  lotId: number;
  /** What the lot still held at its expiry (may be 0: the row is written anyway, so it is settled once). */
  amount: number;
}

export interface CreditStanding {
  /** What the buyer can spend now. */
  available: number;
  /** Lots past their expiry without an `expired` row yet, with what each still held. */
  due: DueExpiry[];
  /** Earned in all (for the panel's "what you have earned"). */
  earned: number;
}

const isLot = (row: CreditRow) => LOT_KINDS.includes(row.kind);

/** Lots in the order spending draws from them: earliest expiry first, then the older row. */
function lotsInDrawOrder(rows: CreditRow[]): CreditRow[] {
  return rows.filter(isLot).sort((a, b) => a.expiresAt!.getTime() - b.expiresAt!.getTime() || a.id - b.id);
}

export function creditStanding(rows: CreditRow[], now: Date): CreditStanding {
  const lots = lotsInDrawOrder(rows);
  const writtenOff = new Set(rows.filter((row) => row.kind === 'expired').map((row) => row.writesOffLot));
  let debits = rows.filter((row) => !isLot(row)).reduce((sum, row) => sum + row.amount, 0);
  const due: DueExpiry[] = [];
  let before = 0;
  let available = 0;
  for (const lot of lots) {
    const through = before + lot.amount;
    const holds = Math.min(lot.amount, Math.max(0, through - debits));
    before = through;
    if (lot.expiresAt!.getTime() > now.getTime()) {
      available += holds;
    } else if (!writtenOff.has(lot.id)) {
      // Past its expiry and not yet written off: it is written off now (a debit like any).
      due.push({ lotId: lot.id, amount: holds });
      debits += holds;
    }
  }
  const earned = rows.filter((row) => row.kind === 'earned').reduce((sum, row) => sum + row.amount, 0);
  return { available, due, earned };
}

/** The key of the `expired` row that writes off lot `lotId` (unique: a lot is written off once). */
export const expiryKey = (lotId: number) => `expire:lot:${lotId}`;

/** The lot an `expired` row's key names. */
export function lotOfExpiryKey(key: string): number | undefined {
  const match = /^expire:lot:(\d+)$/.exec(key);
  return match ? Number(match[1]) : undefined;
}
