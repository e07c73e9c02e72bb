export { PAYMENTS, PAYMENT_PROVIDERS } from './tokens.js';
export { paymentsModule } from './payments.module.js';
export { PAYMENT_QUEUES } from './queues.js';
export type {
  PaymentsService,
  PaymentProviders,
  PaymentView,
  VerifiedReport,
  AppliedReport,
  PendingEvent,
  OrderEffect,
  CheckoutOrder,
  ApplyOutcome,
} from './payments.service.js';
export type { RefundsService, RefundView, RefundablePayment, MoneyBack, StaffRefundClaim, DoublePaymentTotals } from './refunds.service.js';
export type { LedgerService, LedgerEventView, OrderStanding } from './ledger.service.js';
export { paymentStanding, orderAccess, type PaymentAccess, type PaymentStanding, type LedgerEntry, type LedgerEffect, type MoneyFact } from './money-ledger.js';
export { CheckoutClaimLost, type CheckoutClaim } from './checkout-claims.js';
export type { SavedCardsService, SavedCard, SavedCardChargeResult } from './saved-cards.service.js';
export { idempotencyKey, type IdempotencyPurpose } from './idempotency-keys.js';
export { refundTerms, type RefundTerms, type RefundPolicy } from './refund-policy.js';
export type { ProviderName, PaymentMethodId, IncomingNotification, ProviderRequestFailure } from './providers/provider.js';
export { readDemoToken, DEMO_CARDS } from './providers/demo.js';
export { installationIdReader } from './installation.js';
