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
import { PaymentNotificationFlow } from './payment-notification.flow.js';
import { PlatformSale } from './platform-sale.js';
import { SubscriptionMove } from './subscription-move.js';
import { PruneFlow } from './prune.flow.js';
import { RefundFlow } from './refund.flow.js';
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

export const FLOWS = {
  Activation: Symbol.for('subshare.flows.ActivationFlow'),
  Expiry: Symbol.for('subshare.flows.ExpiryFlow'),
  Replacement: Symbol.for('subshare.flows.ReplacementFlow'),
  SendEmail: Symbol.for('subshare.flows.SendEmailFlow'),
  UserPanel: Symbol.for('subshare.flows.UserPanelFlow'),
  VerificationMail: Symbol.for('subshare.flows.VerificationMailFlow'),
  StaffUsers: Symbol.for('subshare.flows.StaffUsersFlow'),
  NamedOrders: Symbol.for('subshare.flows.NamedOrdersFlow'),
  AdminDashboard: Symbol.for('subshare.flows.AdminDashboardFlow'),
  ShopMetrics: Symbol.for('subshare.flows.ShopMetricsFlow'),
  Prune: Symbol.for('subshare.flows.PruneFlow'),
  Checkout: Symbol.for('subshare.flows.CheckoutFlow'),
  PaymentNotification: Symbol.for('subshare.flows.PaymentNotificationFlow'),
  Refund: Symbol.for('subshare.flows.RefundFlow'),
  OrdersExport: Symbol.for('subshare.flows.OrdersExportFlow'),
  CatalogEditor: Symbol.for('subshare.flows.CatalogEditorFlow'),
  AccountHealth: Symbol.for('subshare.flows.AccountHealthFlow'),
  AccountReports: Symbol.for('subshare.flows.AccountReportsFlow'),
  Renewal: Symbol.for('subshare.flows.RenewalFlow'),
  RenewalSwitch: Symbol.for('subshare.flows.RenewalSwitchFlow'),
  RenewalLinks: Symbol.for('subshare.flows.RenewalLinksFlow'),
  RenewalViews: Symbol.for('subshare.flows.RenewalViewsFlow'),
} as const;

export const flowsModule = new ContainerModule(({ bind }) => {
  bind(ActivationFlow).toSelf().inSingletonScope();
  bind(ExpiryFlow).toSelf().inSingletonScope();
  bind(ReplacementFlow).toSelf().inSingletonScope();
  bind(SendEmailFlow).toSelf().inSingletonScope();
  bind(UserPanelFlow).toSelf().inSingletonScope();
  bind(FLOWS.Activation).toService(ActivationFlow);
  bind(FLOWS.Expiry).toService(ExpiryFlow);
  bind(FLOWS.Replacement).toService(ReplacementFlow);
  bind(FLOWS.SendEmail).toService(SendEmailFlow);
  bind(FLOWS.UserPanel).toService(UserPanelFlow);
  bind(VerificationMailFlow).toSelf().inSingletonScope();
  bind(FLOWS.VerificationMail).toService(VerificationMailFlow);
  bind(StaffUsersFlow).toSelf().inSingletonScope();
  bind(AdminDashboardFlow).toSelf().inSingletonScope();
  bind(FLOWS.StaffUsers).toService(StaffUsersFlow);
  bind(NamedOrdersFlow).toSelf().inSingletonScope();
  bind(FLOWS.NamedOrders).toService(NamedOrdersFlow);
  bind(FLOWS.AdminDashboard).toService(AdminDashboardFlow);
  bind(ShopMetricsFlow).toSelf().inSingletonScope();
  bind(FLOWS.ShopMetrics).toService(ShopMetricsFlow);
  bind(PruneFlow).toSelf().inSingletonScope();
  bind(FLOWS.Prune).toService(PruneFlow);
  bind(CheckoutFlow).toSelf().inSingletonScope();
  bind(PaymentNotificationFlow).toSelf().inSingletonScope();
  bind(FLOWS.Checkout).toService(CheckoutFlow);
  bind(FLOWS.PaymentNotification).toService(PaymentNotificationFlow);
  bind(OrderAccess).toSelf().inSingletonScope();
  bind(RefundFlow).toSelf().inSingletonScope();
  bind(FLOWS.Refund).toService(RefundFlow);
  bind(OrdersExportFlow).toSelf().inSingletonScope();
  bind(FLOWS.OrdersExport).toService(OrdersExportFlow);
  bind(CatalogEditorFlow).toSelf().inSingletonScope();
  bind(FLOWS.CatalogEditor).toService(CatalogEditorFlow);
  bind(PlatformSale).toSelf().inSingletonScope();
  bind(SubscriptionMove).toSelf().inSingletonScope();
  bind(AccountHealthFlow).toSelf().inSingletonScope();
  bind(FLOWS.AccountHealth).toService(AccountHealthFlow);
  bind(CircuitBreaker).toSelf().inSingletonScope();
  bind(AccountReportsFlow).toSelf().inSingletonScope();
  bind(FLOWS.AccountReports).toService(AccountReportsFlow);
  // The watcher hands every mail it reads to the account-health flow (the mailboxes module knows only the port).
  bind(MAILBOX_HEARD_SINK).toService(AccountHealthFlow);
  bind(RenewalFlow).toSelf().inSingletonScope();
  bind(FLOWS.Renewal).toService(RenewalFlow);
  bind(RenewalSwitchFlow).toSelf().inSingletonScope();
  bind(FLOWS.RenewalSwitch).toService(RenewalSwitchFlow);
  bind(RenewalLinksFlow).toSelf().inSingletonScope();
  bind(FLOWS.RenewalLinks).toService(RenewalLinksFlow);
  bind(RenewalViewsFlow).toSelf().inSingletonScope();
  bind(FLOWS.RenewalViews).toService(RenewalViewsFlow);
});

export type { ActivationFlow, ActivationResult, ActivationOutcome, ActivatedSlot } from './activation.flow.js';
export { REMINDER_DAYS, type ExpiryFlow, type ExpiryRunResult } from './expiry.flow.js';
export type { ReplacementFlow, ReplacementResult } from './replacement.flow.js';
export { SEND_EMAIL_REPEAT_WINDOW_MS, type SendEmailFlow, type SentEmail } from './send-email.flow.js';
export type { UserPanelFlow, UserPanel, PanelItem } from './user-panel.flow.js';
export type { StaffUsersFlow, StaffUserView, StaffUsersPage } from './staff-users.flow.js';
export type { NamedOrdersFlow } from './named-orders.flow.js';
export { DASHBOARD_REVENUE_DAYS, ACTIVATION_PROMISE_HOURS, type AdminDashboardFlow, type AdminDashboard } from './admin-dashboard.flow.js';
export { ACTIVATION_LATENCY_WINDOW_HOURS, type ShopMetricsFlow, type ShopMetrics } from './shop-metrics.flow.js';
export type { PruneFlow } from './prune.flow.js';
export { LOOKBACK_MS, MAILBOX_PLATFORM_TYPE, MAILBOX_READ_LIMIT, type VerificationMailFlow } from './verification-mail.flow.js';
export type { CheckoutFlow } from './checkout.flow.js';
export type { PaymentNotificationFlow, NotificationAnswer } from './payment-notification.flow.js';
export type { RefundFlow, RefundQuote, RefundResult } from './refund.flow.js';
export type { OrdersExportFlow } from './orders-export.flow.js';
export { CatalogConflictError, type CatalogEditorFlow, type EditablePlatformView, type UploadedLogo } from './catalog-editor.flow.js';
export { ALERT_LOOKBACK_MS, type AccountHealthFlow, type AccountHealthEntry, type HealthBuyer, type PanelHealth } from './account-health.flow.js';
export type { AccountReportsFlow, AccountVoices, ProblemSelfHelp } from './account-reports.flow.js';
export { RETRY_AFTER_DAYS, MAX_ATTEMPTS } from './renewal-terms.js';
export { renewalAttemptKey, type RenewalFlow, type RenewalRunResult, type DueCharge, type ChargeOutcome } from './renewal.flow.js';
export type { RenewalSwitchFlow } from './renewal-switch.flow.js';
export type { RenewalLinksFlow, LinkPage } from './renewal-links.flow.js';
export {
  DASHBOARD_FAILED_RENEWALS,
  REMINDERS_UNDELIVERED_WARNING,
  type RenewalViewsFlow,
  type RenewalState,
  type StaffRenewals,
  type StaffRenewal,
  type RenewalSummary,
} from './renewal-views.flow.js';
