/** The admin area's wire shapes: users as the spec lists them (section 3), the dashboard and the audit log. */
import { serializeMoneyEvent } from './refund.serializer.js';
import { serializeExpectedRevenue, serializeStaffRenewal } from './subscription.serializer.js';
import { toMajorUnits, type AdminDashboard, type AuditRecord, type StaffUserView } from '@subshare/core';

/** The spec's user: `{ id, email, isEmailVerified, name, role, subscribersCount, createdDate }`. */
export function serializeStaffUser(user: StaffUserView) {
  return {
    id: user.id,
    email: user.email,
    isEmailVerified: user.isEmailVerified,
    name: user.name,
    role: user.role,
    subscribersCount: user.subscribersCount,
    createdDate: user.createdAt.toISOString(),
  };
}

export function serializeDashboard(dashboard: AdminDashboard) {
  return {
    revenueEur: dashboard.revenueEur.map((entry) => ({ day: entry.day, totalEur: toMajorUnits(entry.totalEur) })),
    ordersByState: dashboard.ordersByState,
    slotOccupancy: dashboard.slotOccupancy,
    waitingPast24h: dashboard.waitingPast24h.map((entry) => ({ orderId: entry.orderId, paidAt: entry.paidAt.toISOString(), hours: entry.hours })),
    waitingMoneyEvents: dashboard.waitingMoneyEvents.map(serializeMoneyEvent),
    accountHealth: dashboard.accountHealth,
    renewals: {
      expected: serializeExpectedRevenue(dashboard.renewals.expected),
      failedCount: dashboard.renewals.failedCount,
      latestFailed: dashboard.renewals.latestFailed.map(serializeStaffRenewal),
      remindersUndelivered: dashboard.renewals.remindersUndelivered,
    },
    doublePayments: {
      refunded: dashboard.doublePayments.refunded,
      refundedAmounts: serializeExpectedRevenue(dashboard.doublePayments.refundedAmounts),
      waiting: dashboard.doublePayments.waiting,
      failed: dashboard.doublePayments.failed,
    },
    outstandingCredit: serializeExpectedRevenue(dashboard.outstandingCredit),
    discountsGranted: dashboard.discountsGranted.map((line) => ({
      source: line.source,
      code: line.code,
      paidOrders: line.paidOrders,
      granted: serializeExpectedRevenue(line.granted),
    })),
  };
}

/** `{ id, at, actor: { userId, label }, action, target: { type, id } | null, details, ip }`. */
export function serializeAuditEntry(entry: AuditRecord) {
  return {
    id: entry.id,
    at: entry.createdAt.toISOString(),
    actor: { userId: entry.actorUserId, label: entry.actorLabel },
    action: entry.action,
    target: entry.targetType === null && entry.targetId === null ? null : { type: entry.targetType, id: entry.targetId },
    details: entry.details,
    ip: entry.ip,
  };
}
