/** The admin area's lists and reports: orders, users, the CSV export, the dashboard, the audit log, staff roles. */
import { declare } from '../declare.js';
import * as staff from '../staff.js';

const NAMED_ORDERS = 'core/src/flows/named-orders.flow.ts';
const IDENTITY = 'core/src/modules/identity/identity.service.ts';
const AUDIT = 'core/src/modules/audit/audit.service.ts';
const NAMED = "With `languageId` (beyond the spec), platforms, types and durations are named in it (the staff member's language); otherwise in the buyer's.";

export const listOrdersByState = declare({
  operationId: 'listOrdersByState',
  method: 'get',
  path: '/api/order/getbystate',
  access: 'staff',
  tag: 'staff',
  summary: 'The orders in one state, newest first, a page at a time',
  description: NAMED,
  query: staff.ordersByStateQuery,
  answer: staff.ordersAnswer,
  errors: [],
  servedBy: NAMED_ORDERS,
});

export const listOrders = declare({
  operationId: 'listOrders',
  method: 'get',
  path: '/api/order/getorders',
  access: 'staff',
  tag: 'staff',
  summary: 'Every order, newest first, a page at a time',
  description: NAMED,
  query: staff.ordersQuery,
  answer: staff.ordersAnswer,
  errors: [],
  servedBy: NAMED_ORDERS,
});

export const countOrderPages = declare({
  operationId: 'countOrderPages',
  method: 'get',
  path: '/api/order/getorderspages',
  access: 'staff',
  tag: 'staff',
  summary: 'How many orders (in one state, or all) and how many pages',
  query: staff.orderPagesQuery,
  answer: staff.pageCountAnswer,
  errors: [],
  servedBy: 'core/src/modules/orders/orders.service.ts',
});

export const listUsers = declare({
  operationId: 'listUsers',
  method: 'get',
  path: '/api/user/getusers',
  access: 'staff',
  tag: 'staff',
  summary: 'Every user, newest first, a page at a time',
  query: staff.usersQuery,
  answer: staff.usersAnswer,
  errors: [],
  servedBy: 'core/src/flows/staff-users.flow.ts',
});

export const searchUsersByEmail = declare({
  operationId: 'searchUsersByEmail',
  method: 'get',
  path: '/api/user/getusersbyemail',
  access: 'staff',
  tag: 'staff',
  summary: 'Users whose e-mail contains the text (any case), newest first, at most 100',
  query: staff.usersByEmailQuery,
  answer: staff.usersAnswer,
  errors: [],
  servedBy: 'core/src/flows/staff-users.flow.ts',
});

export const countUserPages = declare({
  operationId: 'countUserPages',
  method: 'get',
  path: '/api/user/getuserspages',
  access: 'staff',
  tag: 'staff',
  summary: 'How many users and how many pages',
  query: staff.userPagesQuery,
  answer: staff.pageCountAnswer,
  errors: [],
  servedBy: IDENTITY,
});

export const exportOrdersCsv = declare({
  operationId: 'exportOrdersCsv',
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
  errors: [],
  servedBy: 'core/src/flows/orders-export.flow.ts',
});

export const getDashboard = declare({
  operationId: 'getDashboard',
  method: 'get',
  path: '/api/admin/dashboard',
  access: 'staff',
  tag: 'staff',
  summary: 'Revenue in EUR per day net of refunds (30 days), orders by state, slot occupancy, orders waiting past 24 hours, renewals',
  extra: true,
  query: staff.dashboardQuery,
  answer: staff.dashboardAnswer,
  errors: [],
  servedBy: 'core/src/flows/admin-dashboard.flow.ts',
});

export const listAuditLog = declare({
  operationId: 'listAuditLog',
  method: 'get',
  path: '/api/audit/log',
  access: 'admin',
  tag: 'staff',
  summary: 'The audit log of staff actions and credential reveals, newest first',
  extra: true,
  query: staff.auditQuery,
  answer: staff.auditAnswer,
  errors: [],
  servedBy: AUDIT,
});

export const countAuditPages = declare({
  operationId: 'countAuditPages',
  method: 'get',
  path: '/api/audit/logpages',
  access: 'admin',
  tag: 'staff',
  summary: 'How many audit entries and how many pages',
  extra: true,
  query: staff.auditPagesQuery,
  answer: staff.pageCountAnswer,
  errors: [],
  servedBy: AUDIT,
});

export const listStaff = declare({
  operationId: 'listStaff',
  method: 'get',
  path: '/api/staff/list',
  access: 'admin',
  tag: 'staff',
  summary: 'Every moderator and admin, admins first, with the time each got the role',
  extra: true,
  answer: staff.staffListAnswer,
  errors: [],
  servedBy: IDENTITY,
});

export const setRole = declare({
  operationId: 'setRole',
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
  errors: ['user_not_found', 'last_admin'],
  servedBy: IDENTITY,
});
