/**
 * The admin area's lists and reports: orders and users (spec section 7; paging per section 4:
 * page from 1, limit 1 to 100, default 20), and beyond the spec the CSV export, the dashboard
 * figures and the audit log, and the staff roles (list, set). The export and role changes are audited.
 */
import type { Container } from 'inversify';
import {
  AdminDashboardFlow,
  AuditService,
  IdentityService,
  NamedOrdersFlow,
  OrdersService,
  type OrderView,
  PaymentsService,
  StaffUsersFlow,
} from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { staffHandlers } from '../handlers/staff.handlers.js';
import { auditActor } from '../middleware/auth.js';
import { serializeAuditEntry, serializeDashboard, serializeStaffUser } from '../serializers/admin.serializer.js';
import { serializeOrder } from '../serializers/order.serializer.js';
import { bind, type Call } from './call.js';

export function staffCalls(container: Container): Call[] {
  const orders = container.get(OrdersService);
  const namedOrders = container.get(NamedOrdersFlow);
  const payments = container.get(PaymentsService);
  const users = container.get(StaffUsersFlow);
  const identity = container.get(IdentityService);
  const dashboard = container.get(AdminDashboardFlow);
  const audit = container.get(AuditService);
  const handlers = staffHandlers(container);
  /** The orders with the credit applied to each (one query for the page). */
  const serialize = async (list: OrderView[]) => {
    const credit = await payments.creditApplied(list.map((order) => order.id));
    return list.map((order) => serializeOrder(order, payments.availableMethods(order.paymentMethods), credit.get(order.id)));
  };
  return [
    bind(calls.staff.listOrdersByState, async ({ query }) => serialize((await namedOrders.listByState(query)).items)),
    bind(calls.staff.listOrders, async ({ query }) => serialize((await namedOrders.listOrders(query)).items)),
    bind(calls.staff.countOrderPages, ({ query }) => orders.countPages(query)),
    bind(calls.staff.listUsers, async ({ query }) => (await users.list(query)).items.map(serializeStaffUser)),
    bind(calls.staff.searchUsersByEmail, async ({ query }) => (await users.searchByEmail(query)).map(serializeStaffUser)),
    bind(calls.staff.countUserPages, ({ query }) => identity.countUsers(query)),
    bind(calls.staff.exportOrdersCsv, ({ query, req, res }) => handlers.exportCsv(auditActor(req, res), query, res)),
    bind(calls.staff.getDashboard, async ({ query }) => serializeDashboard(await dashboard.dashboard(query.languageId))),
    bind(calls.staff.listAuditLog, async ({ query }) => (await audit.list(query)).items.map(serializeAuditEntry)),
    bind(calls.staff.countAuditPages, ({ query }) => audit.countPages(query)),
    bind(calls.staff.listStaff, async () => (await identity.listStaff()).map((member) => ({ ...member, since: member.since.toISOString() }))),
    bind(calls.staff.setRole, ({ body, req, res }) => identity.setRole(auditActor(req, res), body)),
  ];
}
