/**
 * The admin area's lists and reports: orders by state or all (spec section 7), users, the CSV
 * export, the dashboard and the audit log (beyond the spec). Paging as the spec pages
 * (shared/paging.ts): `page` from 1, `limit` 1 to 100, 20 unless asked; every `*pages` call
 * answers `{ pages, count }`.
 */
import * as yup from 'yup';
import { moneyEvent } from './refunds.js';
import { pageCountSchema, pagingSchema } from '../shared/paging.js';
import { ORDER_STATES, type OrderState } from './enums.js';
import { dateTime, flag, integer, languageId, list, numberOf, text } from './fields.js';
import { email } from '../validation/index.js';
import { order } from './orders.js';
import { expectedRenewalRevenue, staffRenewal } from './renewals.js';

/** An order state (wire/enums.ts); `?state=` (empty) is the same as leaving it out. */
const orderState = () =>
  numberOf(
    ORDER_STATES,
    `state must be an order state: ${ORDER_STATES.join(', ')}`,
    yup.number().typeError('state must be a number').integer('state must be a whole number'),
  ).transform((value, original) => (original === '' ? undefined : value));

/**
 * Beyond the spec: the staff member's language (1 English, 2 Korean). What each order bought is
 * then named from the catalog in it; without it, in the buyer's language, as the order keeps it.
 */
const staffLanguage = { languageId: languageId.optional() };

export const ordersByStateQuery = pagingSchema().shape({ state: orderState().required('state is required'), ...staffLanguage });
export const ordersQuery = pagingSchema().shape(staffLanguage);
export const orderPagesQuery = pageCountSchema().shape({ state: orderState() });
export const exportQuery = yup.object({ state: orderState() });
/** The dashboard names platforms in the staff member's language (English without it). */
export const dashboardQuery = yup.object(staffLanguage);

export const usersQuery = pagingSchema();
export const userPagesQuery = pageCountSchema();
export const usersByEmailQuery = yup.object({ email: yup.string().trim().required('email is required').max(254, 'email is too long') });

const auditFilter = {
  /** Only entries of this action (`orders.export`, `credentials.reveal`, ...). */
  action: yup.string().trim().max(100, 'action is too long'),
  /** Only entries by this staff user. */
  actorUserId: yup
    .number()
    .typeError('actorUserId must be a number')
    .integer('actorUserId must be a whole number')
    .min(1, 'actorUserId must be positive')
    .max(Number.MAX_SAFE_INTEGER, 'actorUserId is too large'),
  /** Only entries by this actor as the log names them: a staff member's e-mail at the time (any case), or `cli`. */
  actorEmail: yup.string().trim().lowercase().max(254, 'actorEmail is too long'),
  /** Only entries about this kind of object (`order`, `user`, `platform`, `email`, ...). */
  targetType: yup.string().trim().max(50, 'targetType is too long'),
  /** Only entries about the object with this id (with or without `targetType`). */
  targetId: yup.string().trim().max(100, 'targetId is too long'),
};
export const auditQuery = pagingSchema().shape(auditFilter);
export const auditPagesQuery = pageCountSchema().shape(auditFilter);

/** The spec's paged count: how many there are, and how many pages of `limit`. */
export const pageCountAnswer = yup.object({ pages: integer(), count: integer() }).meta({ name: 'PageCount' });

export const ordersAnswer = list(order);

/** The spec's user as the admin area lists one (section 3). */
export const staffUser = yup
  .object({
    id: integer(),
    email: text(),
    isEmailVerified: flag(),
    name: yup.string().nullable().defined(),
    /** 0 buyer, 1 moderator, 2 admin. */
    role: numberOf([0, 1, 2] as const).defined(),
    /** How many subscriptions the user holds now (active and not past the end). */
    subscribersCount: integer(),
    createdDate: dateTime(),
  })
  .meta({ name: 'StaffUser' });
export const usersAnswer = list(staffUser);

/** Every order state with how many orders are in it. */
const countsByState = yup.object(Object.fromEntries(ORDER_STATES.map((state) => [state, integer()])) as Record<OrderState, ReturnType<typeof integer>>);

export const dashboardAnswer = yup.object({
  /**
   * Revenue in EUR on each of the last 30 UTC days, today last, net of refunds: what orders paid
   * that day (refunded ones too: their payment was revenue that day), net of discounts (each
   * order's EUR price times total / subtotal), less the part paid from credit (money taken only),
   * less the EUR value of the refunds and chargebacks completed that day, each its share of its
   * order's EUR price (refund × totalEur / subtotal, rounded to the cent). Negative on a day whose
   * refunds exceed its payments.
   */
  revenueEur: list(yup.object({ day: text(), totalEur: yup.number().defined() })),
  ordersByState: countsByState,
  /** Per platform: the slots on its active accounts and how many are held now. */
  /** `free`: slots nobody holds on accounts that are not broken; `broken`: slots on broken accounts (never free). */
  slotOccupancy: list(yup.object({ platformId: integer(), name: text(), slots: integer(), used: integer(), free: integer(), broken: integer() })),
  /** Paid orders not activated a day after payment, oldest payment first. */
  waitingPast24h: list(yup.object({ orderId: integer(), paidAt: dateTime(), hours: integer() })),
  /** Money events (refunds, disputes, chargebacks) waiting for a payment the shop does not know or has not seen paid yet, oldest first; each leaves once applied. */
  waitingMoneyEvents: list(moneyEvent),
  /** Active platform accounts by health (issue 29): `broken` and `attention` need staff. */
  accountHealth: yup.object({ ok: integer(), attention: integer(), broken: integer() }).defined(),
  /** Automatic renewals (issue 28); GET /api/admin/renewals has every one. */
  renewals: yup
    .object({
      /** The next 30 days: subscriptions ending then with renewal on and a card saved, at the amount each would be charged, summed per currency. */
      expected: expectedRenewalRevenue,
      /** Renewals declined (retrying or given up) or waiting on the buyer's bank, changed in the last 30 days. */
      failedCount: integer(),
      /** The latest 5 of them, latest first. */
      latestFailed: list(staffRenewal),
      /** True when automatic renewal is offered but its reminders reach nobody (no SMTP_URL outside demo mode): no renewal is charged until SMTP_URL is set. */
      remindersUndelivered: flag(),
    })
    .defined(),
  /**
   * Second payments of an order (two tabs, two providers, a race: issue 34), which the shop refunds
   * at once through their provider: `refunded` (and how much, per currency), `waiting` (the provider
   * has not answered yet, or CoinPal's, which staff send back by hand) and `failed` (the provider
   * refused: staff give the money back another way). Each is on its order's page.
   */
  doublePayments: yup
    .object({
      refunded: integer(),
      refundedAmounts: expectedRenewalRevenue,
      waiting: integer(),
      failed: integer(),
    })
    .defined(),
  /** Issue 37: what the shop owes its buyers in credit, per currency (earned, returned and released, less spent and expired). */
  outstandingCredit: list(yup.object({ amount: yup.number().defined(), currencyCode: text() })),
  /**
   * Issue 37: what discounts have cost the shop. The welcome discount's line first (`source`
   * `welcome`, `code` null), then each promotion code carried by a paid order (paid, completed or
   * refunded), newest code first: `paidOrders` and the discount they got per currency (`granted`,
   * currencies without any left out). Revenue is already net of these (a total is after its discount).
   */
  discountsGranted: list(
    yup.object({
      source: yup
        .string()
        .oneOf(['code', 'welcome'] as const)
        .defined(),
      code: yup.string().nullable().defined(),
      paidOrders: integer(),
      granted: list(yup.object({ amount: yup.number().defined(), currencyCode: text() })),
    }),
  ),
});

/** One entry of the audit log: who did what to what, with the details the action recorded. */
export const auditEntry = yup
  .object({
    id: integer(),
    at: dateTime(),
    /** The staff user (with their e-mail at the time), or an operator tool (`cli`) without a user id. */
    actor: yup.object({ userId: yup.number().integer().nullable().defined(), label: yup.string().nullable().defined() }),
    action: text(),
    target: yup.object({ type: yup.string().nullable().defined(), id: yup.string().nullable().defined() }).nullable().defined(),
    details: yup.object().defined(),
    ip: yup.string().nullable().defined(),
  })
  .meta({ name: 'AuditEntry' });
export const auditAnswer = list(auditEntry);

/** Beyond the spec (issue 15): a moderator or admin as the staff page lists them. */
export const staffMember = yup
  .object({
    id: integer(),
    email: text(),
    name: yup.string().nullable().defined(),
    /** 1 moderator, 2 admin. */
    role: numberOf([1, 2] as const).defined(),
    /** When the user got this role (their sign-up when they have had it from the start). */
    since: dateTime(),
  })
  .meta({ name: 'StaffMember' });
/** Every moderator and admin, admins first, then by e-mail. */
export const staffListAnswer = list(staffMember);

/** 0 user (demotes to buyer), 1 moderator, 2 admin. */
const roleField = numberOf([0, 1, 2] as const, 'role must be 0 (user), 1 (moderator) or 2 (admin)', yup.number().typeError('role must be 0, 1 or 2'));
export const setRoleBody = yup.object({ email: email(), role: roleField.required('role is required') });
/** The user's role before and after; `changed: false` when they had it already (nothing audited). */
export const setRoleAnswer = yup.object({
  id: integer(),
  email: text(),
  before: numberOf([0, 1, 2] as const).defined(),
  role: numberOf([0, 1, 2] as const).defined(),
  changed: flag(),
});

export type OrdersByStateQuery = yup.InferType<typeof ordersByStateQuery>;
export type OrdersQuery = yup.InferType<typeof ordersQuery>;
export type OrderPagesQuery = yup.InferType<typeof orderPagesQuery>;
export type ExportQuery = yup.InferType<typeof exportQuery>;
export type UsersQuery = yup.InferType<typeof usersQuery>;
export type UserPagesQuery = yup.InferType<typeof userPagesQuery>;
export type UsersByEmailQuery = yup.InferType<typeof usersByEmailQuery>;
export type AuditQuery = yup.InferType<typeof auditQuery>;
export type AuditPagesQuery = yup.InferType<typeof auditPagesQuery>;
export type PageCountAnswer = yup.InferType<typeof pageCountAnswer>;
export type StaffUserAnswer = yup.InferType<typeof staffUser>;
export type DashboardAnswer = yup.InferType<typeof dashboardAnswer>;
export type AuditEntryAnswer = yup.InferType<typeof auditEntry>;
export type StaffMemberAnswer = yup.InferType<typeof staffMember>;
export type SetRoleInput = yup.InferType<typeof setRoleBody>;
export type SetRoleAnswer = yup.InferType<typeof setRoleAnswer>;
