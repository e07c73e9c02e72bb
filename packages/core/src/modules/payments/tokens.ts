/** The provider adapters chosen from configuration (tests may bind their own). */
export const PAYMENT_PROVIDERS = Symbol.for('subshare.payments.Providers');
