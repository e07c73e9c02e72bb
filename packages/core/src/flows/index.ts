// Flows: use cases that cross modules, each reaching the modules only through their index.ts.
import { ContainerModule } from 'inversify';
import { MAILBOX_HEARD_SINK } from '../modules/mailboxes/index.js';
import { AccountHealthFlow } from './account-health.flow.js';
import { AccountReportsFlow } from './account-reports.flow.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { ActivationFlow } from './activation.flow.js';
import { AdminDashboardFlow } from './admin-dashboard.flow.js';
import { CatalogEditorFlow } from './catalog-editor.flow.js';
import { CheckoutFlow } from './checkout.flow.js';
import { ExpiryFlow } from './expiry.flow.js';
import { NamedOrdersFlow } from './named-orders.flow.js';
import { OrderAccess } from './order-access.js';
import { OrdersExportFlow } from './orders-export.flow.js';
import { PaymentCredit } from './payment-credit.js';
import { PaymentNotificationFlow } from './payment-notification.flow.js';
import { PlatformSale } from './platform-sale.js';
import { SubscriptionMove } from './subscription-move.js';
import { PromoCodeFlow } from './promo-code.flow.js';
import { PruneFlow } from './prune.flow.js';
import { RefundFlow } from './refund.flow.js';
import { ReferralFlow } from './referral.flow.js';
import { RenewalFlow } from './renewal.flow.js';
import { RenewalLinksFlow } from './renewal-links.flow.js';
import { RenewalSwitchFlow } from './renewal-switch.flow.js';
import { RenewalViewsFlow } from './renewal-views.flow.js';
import { ReplacementFlow } from './replacement.flow.js';
import { SendEmailFlow } from './send-email.flow.js';
import { ShopMetricsFlow } from './shop-metrics.flow.js';
import { StaffUsersFlow } from './staff-users.flow.js';
import { UserPanelFlow } from './user-panel.flow.js';
import { VerificationMailFlow } from './verification-mail.flow.js';

export const flowsModule = new ContainerModule(({ bind }) => {
  bind(ActivationFlow).toSelf().inSingletonScope();
  bind(ExpiryFlow).toSelf().inSingletonScope();
  bind(ReplacementFlow).toSelf().inSingletonScope();
  bind(SendEmailFlow).toSelf().inSingletonScope();
  bind(UserPanelFlow).toSelf().inSingletonScope();
  bind(VerificationMailFlow).toSelf().inSingletonScope();
  bind(StaffUsersFlow).toSelf().inSingletonScope();
  bind(AdminDashboardFlow).toSelf().inSingletonScope();
  bind(NamedOrdersFlow).toSelf().inSingletonScope();
  bind(ShopMetricsFlow).toSelf().inSingletonScope();
  bind(PruneFlow).toSelf().inSingletonScope();
  bind(CheckoutFlow).toSelf().inSingletonScope();
  bind(PaymentNotificationFlow).toSelf().inSingletonScope();
  bind(PaymentCredit).toSelf().inSingletonScope();
  bind(OrderAccess).toSelf().inSingletonScope();
  bind(RefundFlow).toSelf().inSingletonScope();
  bind(OrdersExportFlow).toSelf().inSingletonScope();
  bind(CatalogEditorFlow).toSelf().inSingletonScope();
  bind(PlatformSale).toSelf().inSingletonScope();
  bind(SubscriptionMove).toSelf().inSingletonScope();
  bind(AccountHealthFlow).toSelf().inSingletonScope();
  bind(CircuitBreaker).toSelf().inSingletonScope();
  bind(AccountReportsFlow).toSelf().inSingletonScope();
  // The watcher hands every mail it reads to the account-health flow (the mailboxes module knows only the port).
  bind(MAILBOX_HEARD_SINK).toService(AccountHealthFlow);
  bind(RenewalFlow).toSelf().inSingletonScope();
  bind(RenewalSwitchFlow).toSelf().inSingletonScope();
  bind(RenewalLinksFlow).toSelf().inSingletonScope();
  bind(RenewalViewsFlow).toSelf().inSingletonScope();
  bind(ReferralFlow).toSelf().inSingletonScope();
  bind(PromoCodeFlow).toSelf().inSingletonScope();
});

export { ActivationFlow, type ActivationResult, type ActivationOutcome, type ActivatedSlot } from './activation.flow.js';
export { REMINDER_DAYS, ExpiryFlow, type ExpiryRunResult } from './expiry.flow.js';
export { ReplacementFlow, type ReplacementResult } from './replacement.flow.js';
export { SEND_EMAIL_REPEAT_WINDOW_MS, SendEmailFlow, type SentEmail } from './send-email.flow.js';
export { UserPanelFlow, type UserPanel, type PanelItem } from './user-panel.flow.js';
export { StaffUsersFlow, type StaffUserView, type StaffUsersPage } from './staff-users.flow.js';
export { NamedOrdersFlow } from './named-orders.flow.js';
export { DASHBOARD_REVENUE_DAYS, ACTIVATION_PROMISE_HOURS, AdminDashboardFlow, type AdminDashboard, type DiscountGranted } from './admin-dashboard.flow.js';
export { ACTIVATION_LATENCY_WINDOW_HOURS, ShopMetricsFlow, type ShopMetrics } from './shop-metrics.flow.js';
export { PruneFlow } from './prune.flow.js';
export { LOOKBACK_MS, MAILBOX_PLATFORM_TYPE, MAILBOX_READ_LIMIT, VerificationMailFlow } from './verification-mail.flow.js';
export { CheckoutFlow } from './checkout.flow.js';
export { PromoCodeFlow } from './promo-code.flow.js';
export { PaymentNotificationFlow, type NotificationAnswer } from './payment-notification.flow.js';
export { PaymentCredit } from './payment-credit.js';
export { RefundFlow, type RefundQuote, type RefundResult } from './refund.flow.js';
export { ReferralFlow, type ReferralAnswer, type GrantPass } from './referral.flow.js';
export { OrdersExportFlow } from './orders-export.flow.js';
export { CatalogConflictError, CatalogEditorFlow, type EditablePlatformView, type UploadedLogo } from './catalog-editor.flow.js';
export { ALERT_LOOKBACK_MS, AccountHealthFlow, type AccountHealthEntry, type HealthBuyer, type PanelHealth } from './account-health.flow.js';
export { AccountReportsFlow, type AccountVoices, type ProblemSelfHelp } from './account-reports.flow.js';
export { RETRY_AFTER_DAYS, MAX_ATTEMPTS } from './renewal-terms.js';
export { renewalAttemptKey, RenewalFlow, type RenewalRunResult, type DueCharge, type ChargeOutcome } from './renewal.flow.js';
export { RenewalSwitchFlow } from './renewal-switch.flow.js';
export { RenewalLinksFlow, type LinkPage } from './renewal-links.flow.js';
export {
  DASHBOARD_FAILED_RENEWALS,
  REMINDERS_UNDELIVERED_WARNING,
  RenewalViewsFlow,
  type RenewalState,
  type StaffRenewals,
  type StaffRenewal,
  type RenewalSummary,
} from './renewal-views.flow.js';
