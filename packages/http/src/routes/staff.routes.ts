/**
 * The admin area's lists and reports: orders and users (spec section 7; paging per section 4:
 * page from 1, limit 1 to 100, default 20), and beyond the spec the CSV export, the dashboard
 * figures and the audit log, and the staff roles (list, set). The export and role changes are audited.
 */
import type { Container } from 'inversify';
import {
  AUDIT,
  FLOWS,
  IDENTITY,
  ORDERS,
  PAYMENTS,
  type AdminDashboardFlow,
  type AuditService,
  type IdentityService,
  type NamedOrdersFlow,
  type OrdersService,
  type OrderView,
  type PaymentsService,
  type StaffUsersFlow,
} from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { staffHandlers } from '../handlers/staff.handlers.js';
import { auditActor } from '../middleware/auth.js';
import { serializeAuditEntry, serializeDashboard, serializeStaffUser } from '../serializers/admin.serializer.js';
import { serializeOrder } from '../serializers/order.serializer.js';
import { call, type Call } from './call.js';

export function staffCalls(container: Container): Call[] {
  const orders = container.get<OrdersService>(ORDERS.Service);
  const namedOrders = container.get<NamedOrdersFlow>(FLOWS.NamedOrders);
  const payments = container.get<PaymentsService>(PAYMENTS.Service);
  const users = container.get<StaffUsersFlow>(FLOWS.StaffUsers);
  const identity = container.get<IdentityService>(IDENTITY.Service);
  const dashboard = container.get<AdminDashboardFlow>(FLOWS.AdminDashboard);
  const audit = container.get<AuditService>(AUDIT.Service);
  const handlers = staffHandlers(container);
  const { staff } = wire;
  const serialize = (order: OrderView) => serializeOrder(order, payments.availableMethods(order.paymentMethods));
  return [
    call({
      method: 'get',
      path: '/api/order/getbystate',
      access: 'staff',
      tag: 'staff',
      summary: 'The orders in one state, newest first, a page at a time',
      description:
        "With `languageId` (beyond the spec), platforms, types and durations are named in it (the staff member's language); otherwise in the buyer's.",
      query: staff.ordersByStateQuery,
      answer: staff.ordersAnswer,
      handler: async ({ query }) => (await namedOrders.listByState(query)).items.map(serialize),
    }),
    call({
      method: 'get',
      path: '/api/order/getorders',
      access: 'staff',
      tag: 'staff',
      summary: 'Every order, newest first, a page at a time',
      description:
        "With `languageId` (beyond the spec), platforms, types and durations are named in it (the staff member's language); otherwise in the buyer's.",
      query: staff.ordersQuery,
      answer: staff.ordersAnswer,
      handler: async ({ query }) => (await namedOrders.listOrders(query)).items.map(serialize),
    }),
    call({
      method: 'get',
      path: '/api/order/getorderspages',
      access: 'staff',
      tag: 'staff',
      summary: 'How many orders (in one state, or all) and how many pages',
      query: staff.orderPagesQuery,
      answer: staff.pageCountAnswer,
      handler: ({ query }) => orders.countPages(query),
    }),
    call({
      method: 'get',
      path: '/api/user/getusers',
      access: 'staff',
      tag: 'staff',
      summary: 'Every user, newest first, a page at a time',
      query: staff.usersQuery,
      answer: staff.usersAnswer,
      handler: async ({ query }) => (await users.list(query)).items.map(serializeStaffUser),
    }),
    call({
      method: 'get',
      path: '/api/user/getusersbyemail',
      access: 'staff',
      tag: 'staff',
      summary: 'Users whose e-mail contains the text (any case), newest first, at most 100',
      query: staff.usersByEmailQuery,
      answer: staff.usersAnswer,
      handler: async ({ query }) => (await users.searchByEmail(query)).map(serializeStaffUser),
    }),
    call({
      method: 'get',
      path: '/api/user/getuserspages',
      access: 'staff',
      tag: 'staff',
      summary: 'How many users and how many pages',
      query: staff.userPagesQuery,
      answer: staff.pageCountAnswer,
      handler: ({ query }) => identity.countUsers(query),
    }),
    call({
      method: 'get',
      path: '/api/order/export.csv',
      access: 'staff',
      tag: 'staff',
      summary: 'The orders (in one state, or all) as a CSV download, newest first (audited)',
      description: 'Audited as `orders.export`. Starts with a byte-order mark so spreadsheet programs read Korean names as UTF-8.',
      extra: true,
      query: staff.exportQuery,
      answer: {
        status: 200,
        contentType: 'text/csv',
        description:
          'CSV: id, created, state, userId, email, platform, type, duration, quantity, total, currency, totalEur, paymentMethod, paid, completed, refunded ' +
          '(what went back to the buyer: refunds and chargebacks, in the order currency; empty when nothing did)',
      },
      handler: ({ query, req, res }) => handlers.exportCsv(auditActor(req, res), query, res),
    }),
    call({
      method: 'get',
      path: '/api/admin/dashboard',
      access: 'staff',
      tag: 'staff',
      summary: 'Revenue in EUR per day net of refunds (30 days), orders by state, slot occupancy, orders waiting past 24 hours',
      extra: true,
      query: staff.dashboardQuery,
      answer: staff.dashboardAnswer,
      handler: async ({ query }) => serializeDashboard(await dashboard.dashboard(query.languageId)),
    }),
    call({
      method: 'get',
      path: '/api/audit/log',
      access: 'admin',
      tag: 'staff',
      summary: 'The audit log of staff actions and credential reveals, newest first',
      extra: true,
      query: staff.auditQuery,
      answer: staff.auditAnswer,
      handler: async ({ query }) => (await audit.list(query)).items.map(serializeAuditEntry),
    }),
    call({
      method: 'get',
      path: '/api/audit/logpages',
      access: 'admin',
      tag: 'staff',
      summary: 'How many audit entries and how many pages',
      extra: true,
      query: staff.auditPagesQuery,
      answer: staff.pageCountAnswer,
      handler: ({ query }) => audit.countPages(query),
    }),
    call({
      method: 'get',
      path: '/api/staff/list',
      access: 'admin',
      tag: 'staff',
      summary: 'Every moderator and admin, admins first, with the time each got the role',
      extra: true,
      answer: staff.staffListAnswer,
      handler: async () => (await identity.listStaff()).map((member) => ({ ...member, since: member.since.toISOString() })),
    }),
    call({
      method: 'post',
      path: '/api/staff/setrole',
      access: 'admin',
      tag: 'staff',
      summary: 'Give a user (by e-mail) a role: 0 user, 1 moderator, 2 admin (audited)',
      description:
        'Takes effect on their next request. Audited as `user.role` with the role before and after. 404 `user_not_found`; ' +
        '409 `last_admin` when it would leave no admin (two admins demoting each other at once leave one).',
      extra: true,
      body: staff.setRoleBody,
      answer: staff.setRoleAnswer,
      handler: ({ body, req, res }) => identity.setRole(auditActor(req, res), body),
    }),
  ];
}
