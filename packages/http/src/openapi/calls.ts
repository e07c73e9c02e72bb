/**
 * The calls not yet in the route table (routes/table.ts), described for `/api/openapi.json`
 * until they move there: who may make them, what they take, what they answer (in prose). A
 * call that moves to the table loses its entry here; when none is left, this file goes.
 */

import type { Access, Tag } from '../routes/call.js';

export type FieldType = 'integer' | 'number' | 'string' | 'boolean' | 'email';

/** A field: its type, and `?` at the end of the name when it may be left out. */
export type Fields = Record<string, FieldType>;

export interface ApiCall {
  method: 'get' | 'post';
  /** Express style (`:id` for a path parameter). */
  path: string;
  access: Access;
  tag: Tag;
  summary: string;
  /** GET: query parameters; POST: JSON body fields (a provider webhook's body is the provider's own). */
  input?: Fields;
  /** What a successful call answers (200). */
  answers: string;
  /** Beyond the spec's section 7. */
  extra?: true;
}

export const API_CALLS: ApiCall[] = [
  // Staff lists (the admin area): pages start at 1, limit 1 to 100 (default 20); `*pages` answer { pages, count }
  {
    method: 'get',
    path: '/api/order/getbystate',
    access: 'staff',
    tag: 'staff',
    summary: 'The orders in one state, newest first, a page at a time',
    input: { state: 'integer', 'page?': 'integer', 'limit?': 'integer' },
    answers: 'a list of orders (each with `totalEur`)',
  },
  {
    method: 'get',
    path: '/api/order/getorders',
    access: 'staff',
    tag: 'staff',
    summary: 'Every order, newest first, a page at a time',
    input: { 'page?': 'integer', 'limit?': 'integer' },
    answers: 'a list of orders (each with `totalEur`)',
  },
  {
    method: 'get',
    path: '/api/order/getorderspages',
    access: 'staff',
    tag: 'staff',
    summary: 'How many orders (in one state, or all) and how many pages',
    input: { 'state?': 'integer', 'limit?': 'integer' },
    answers: '`{ pages, count }`',
  },
  {
    method: 'get',
    path: '/api/user/getusers',
    access: 'staff',
    tag: 'staff',
    summary: 'Every user, newest first, a page at a time',
    input: { 'page?': 'integer', 'limit?': 'integer' },
    answers: 'a list of `{ id, email, isEmailVerified, name, role, subscribersCount, createdDate }`',
  },
  {
    method: 'get',
    path: '/api/user/getusersbyemail',
    access: 'staff',
    tag: 'staff',
    summary: 'Users whose e-mail contains the text (any case), newest first, at most 100',
    input: { email: 'string' },
    answers: 'a list of `{ id, email, isEmailVerified, name, role, subscribersCount, createdDate }`',
  },
  {
    method: 'get',
    path: '/api/user/getuserspages',
    access: 'staff',
    tag: 'staff',
    summary: 'How many users and how many pages',
    input: { 'limit?': 'integer' },
    answers: '`{ pages, count }`',
  },
  {
    method: 'get',
    path: '/api/order/export.csv',
    access: 'staff',
    tag: 'staff',
    summary: 'The orders (in one state, or all) as a CSV download, newest first (audited)',
    input: { 'state?': 'integer' },
    answers:
      'CSV (`text/csv`): id, created, state, userId, email, platform, type, duration, quantity, total, currency, totalEur, paymentMethod, paid, completed',
    extra: true,
  },
  {
    method: 'get',
    path: '/api/admin/dashboard',
    access: 'staff',
    tag: 'staff',
    summary: 'Revenue in EUR per day (30 days), orders by state, slot occupancy, orders waiting past 24 hours',
    answers:
      '`{ revenueEur: [{ day, totalEur }], ordersByState, slotOccupancy: [{ platformId, name, slots, used }], waitingPast24h: [{ orderId, paidAt, hours }] }`',
    extra: true,
  },
  {
    method: 'get',
    path: '/api/audit/log',
    access: 'admin',
    tag: 'staff',
    summary: 'The audit log of staff actions and credential reveals, newest first',
    input: { 'page?': 'integer', 'limit?': 'integer', 'action?': 'string', 'actorUserId?': 'integer' },
    answers: 'a list of `{ id, at, actor: { userId, label }, action, target: { type, id } | null, details, ip }`',
    extra: true,
  },
  {
    method: 'get',
    path: '/api/audit/logpages',
    access: 'admin',
    tag: 'staff',
    summary: 'How many audit entries and how many pages',
    input: { 'limit?': 'integer', 'action?': 'string', 'actorUserId?': 'integer' },
    answers: '`{ pages, count }`',
    extra: true,
  },
];
