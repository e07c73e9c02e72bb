/**
 * Every action the audit log records, in one list: the server may record only these (the
 * audit service's entry is typed by it), and the staff screen's texts must name each one in
 * English and Korean (packages/web/src/features/admin/audit/texts.ts is compile-checked against
 * it), so no entry shows a raw key such as `account.problem.report` (issue 35).
 */
export const AUDIT_ACTIONS = [
  'user.role',
  'credentials.reveal',
  'mailbox.reveal',
  'mailbox.read',
  'email.read',
  'email.send',
  'email.retry',
  'order.activate',
  'order.refund',
  'orders.export',
  'subscription.replace',
  'subscription.autorenew',
  'account.create',
  'mailbox.create',
  'credentials.rotate',
  'payment.dispute_opened',
  'payment.dispute_won',
  'catalog.platform_create',
  'catalog.platform_update',
  'catalog.platform_enable',
  'catalog.logo_upload',
  'account.health',
  'account.health.set',
  'account.health.extend',
  'account.health.held',
  'account.problem.report',
  'account.problem.confirm',
  'platform.offSale',
  'platform.onSale',
  'promo.create',
  'promo.update',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry is about (`targetType`), named on the same screen the same way. */
export const AUDIT_TARGET_TYPES = [
  'order',
  'orders',
  'user',
  'platform',
  'platform_account',
  'subscription',
  'email',
  'mailbox',
  'media',
  'promo_code',
] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
