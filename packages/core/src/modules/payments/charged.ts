/**
 * A payment paid partly from the buyer's credit (issue 37) keeps its whole amount (the order's
 * total: the money ledger's standing and the refund policy read it), and the provider is asked
 * only for the rest. This is the one place that says what "the rest" is.
 */
import { money, type CurrencyCode, type Money } from '../../shared/money.js';
import type { PaymentRow } from './models/payment.model.js';

/** What the provider is asked for (its checkout, status answers, the paid-amount check, a charge, a refund's cap): amount − credit. */
export function chargedOf(row: Pick<PaymentRow, 'amount_minor' | 'credit_minor' | 'currency'>): Money {
  return money(Number(row.amount_minor) - Number(row.credit_minor ?? 0), row.currency as CurrencyCode);
}
