export const PAYMENTS = {
  Service: Symbol.for('subshare.payments.PaymentsService'),
  Refunds: Symbol.for('subshare.payments.RefundsService'),
  Ledger: Symbol.for('subshare.payments.LedgerService'),
  SavedCards: Symbol.for('subshare.payments.SavedCardsService'),
} as const;

/** The provider adapters chosen from configuration (tests may bind their own). */
export const PAYMENT_PROVIDERS = Symbol.for('subshare.payments.Providers');
