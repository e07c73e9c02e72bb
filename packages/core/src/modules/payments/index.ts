export { PAYMENT_PROVIDERS } from './tokens.js';
export { paymentsModule } from './payments.module.js';
export { PAYMENT_QUEUES } from './queues.js';
export {
  PaymentsService,
  type PaymentProviders,
  type PaymentView,
  type PaidPayment,
  type VerifiedReport,
  type AppliedReport,
  type PendingEvent,
  type OrderEffect,
  type CheckoutOrder,
  type ApplyOutcome,
} from './payments.service.js';
export { RefundsService, type RefundView, type RefundablePayment, type MoneyBack, type StaffRefundClaim, type DoublePaymentTotals } from './refunds.service.js';
export { LedgerService, type LedgerEventView, type OrderStanding } from './ledger.service.js';
export { paymentStanding, orderAccess, type PaymentAccess, type PaymentStanding, type LedgerEntry, type LedgerEffect, type MoneyFact } from './money-ledger.js';
export { CheckoutClaimLost, type CheckoutClaim } from './checkout-claims.js';
export { SavedCardsService, type SavedCard, type SavedCardChargeResult } from './saved-cards.service.js';
export { chargedOf } from './charged.js';
export { idempotencyKey, type IdempotencyPurpose } from './idempotency-keys.js';
export { refundTerms, type RefundTerms, type RefundPolicy } from './refund-policy.js';
export { percentOf } from './refund-policy.js';
export type { ProviderName, PaymentMethodId, IncomingNotification, ProviderRequestFailure } from './providers/provider.js';
export { readDemoToken, DEMO_CARDS } from './providers/demo.js';
export { installationIdReader } from './installation.js';
