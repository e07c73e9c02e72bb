/**
 * The admin area's calls (spec sections 3, 6 and 7), all staff-only and carrying the login's
 * bearer token: orders by state and their pages, users and their pages, platforms, mailboxes,
 * platform accounts ("create subscription"), activation, replacement, refunds (admins), staff
 * e-mails, the dashboard figures and the orders' CSV export. Pages start at 1; limits are 1 to 100.
 * Imported by the admin chunk only.
 */
import type { InferType } from 'yup';
import type { catalog, email, orders, refunds, staff, subscriptions } from '@subshare/core/wire';
import { callApi, downloadApi } from './calls';
import type { DownloadedFile } from './client';
import { getUserPanel, type UserPanel } from './panel';
import type { Item } from './types';

/** An order state (spec section 3) as the staff lists take it. */
type OrderState = staff.OrdersByStateQuery['state'];
type SendEmailInput = email.SendEmailInput;

/** One item of an order as the admin lists show it (spec section 3). */
export type AdminOrderItem = orders.OrderItemAnswer;

/** The spec's Order; `total` in the order's currency, `totalEur` its value in EUR (admin totals are in EUR). */
export type AdminOrder = orders.OrderAnswer;

/** The spec's paged count response. */
export type PagesCount = staff.PageCountAnswer;

/** The spec's User as the admin area lists one: role 0 user, 1 moderator, 2 admin. */
export type AdminUser = staff.StaffUserAnswer;

/** Staff: every platform in English, enabled or not. */
export type AdminPlatform = Item<InferType<typeof catalog.allPlatformsAnswer>>;

/** The spec's Mailbox with its password (staff only, audited), plus its platform (null: not given to a platform yet). */
export type Mailbox = subscriptions.MailboxAnswer;

/** The admin "create subscription" form: a platform account (the spec's "subscriber"). */
export type NewSubscription = subscriptions.AccountInput;

/** The account as staff see it: never its password. */
export type CreatedAccount = subscriptions.AccountAnswer;

/** `GET /api/admin/dashboard` (beyond the spec): EUR revenue per day, orders per state, slot occupancy, orders waiting past the activation promise (ACTIVATION_HOURS, core's promises). */
export type Dashboard = staff.DashboardAnswer;

/** What refunding an order would give back now under the refund policy, and its earlier refunds (amounts in major units). */
export type RefundQuote = refunds.RefundQuoteAnswer;

/** One money event of an order's ledger (the refund dialog, the dashboard). */
export type MoneyEvent = refunds.MoneyEventAnswer;

/** One refund of an order (staff, provider or chargeback) and how far it went. */
export type Refund = refunds.RefundAnswer;

/** Staff's refund: the reason (audited), the override past the policy's window, CoinPal's transfer reference. */
export type RefundRequest = refunds.RefundInput;

/** The refund made and the order's state after it (5: refunded). */
export type RefundResult = refunds.RefundResultAnswer;

/** The e-mail written now, or the first one when the same request came within a minute (`repeated`). */
export type SentEmail = email.SentEmailAnswer;

// Orders -----------------------------------------------------------------------------------

/** `languageId`: the admin's; platforms, types and durations are named in it (an order keeps its buyer's language). */
export function getOrdersByState(state: number, page: number, limit: number, languageId: number): Promise<AdminOrder[]> {
  return callApi('listOrdersByState', { query: { state: state as OrderState, page, limit, languageId: languageId as 1 | 2 } });
}

export function getOrdersPages(state: number, limit: number): Promise<PagesCount> {
  return callApi('countOrderPages', { query: { state: state as OrderState, limit } });
}

export function getOrder(id: number, languageId: number): Promise<AdminOrder> {
  return callApi('getOrder', { query: { id, languageId: languageId as 1 | 2 } });
}

/** A waiting order (state 6) gets its slots now; 409 when it is not waiting or no slot is free. */
export function activateOrder(orderId: number): Promise<subscriptions.ActivateAnswer> {
  return callApi('activateSubscription', { body: { orderId } });
}

/** Admins: what a refund of the order would be now (amount paid, fee, refund, the policy window). */
export function getRefundQuote(orderId: number): Promise<RefundQuote> {
  return callApi('getRefundQuote', { query: { orderId } });
}

/**
 * Admins: gives the money back through the provider that took it (CoinPal: records the transfer
 * staff made). 409 past the window without the override, while another refund is under way or
 * when the order is not refundable; 503 when the provider could not be reached (nothing changed).
 */
export function refundOrder(request: RefundRequest): Promise<RefundResult> {
  return callApi('refundOrder', { body: request });
}

/** The orders of a state as CSV (beyond the spec), fetched with the token. */
export function exportOrdersCsv(state: number): Promise<DownloadedFile> {
  return downloadApi('exportOrdersCsv', { query: { state: state as OrderState } });
}

// Users ------------------------------------------------------------------------------------

export function getUsers(page: number, limit: number): Promise<AdminUser[]> {
  return callApi('listUsers', { query: { page, limit } });
}

export function getUsersByEmail(email: string): Promise<AdminUser[]> {
  return callApi('searchUsersByEmail', { query: { email } });
}

export function getUsersPages(limit: number): Promise<PagesCount> {
  return callApi('countUserPages', { query: { limit } });
}

/** One e-mail of a kind (0–9) to the user, in their language. */
export function sendEmail(userId: number, emailType: number): Promise<SentEmail> {
  return callApi('sendEmail', { body: { userId, emailType: emailType as SendEmailInput['emailType'] } });
}

/** A user's panel as staff see it, in the admin's language (the spec's admin view asks in English, languageId 1). */
export function getAdminUserPanel(userId: number, languageId: number): Promise<UserPanel> {
  return getUserPanel(userId, languageId);
}

/** Moves a subscription to a free slot of another account of its platform. */
export function replaceSubscription(subscribeId: number, orderId: number): Promise<subscriptions.ReplaceAnswer> {
  return callApi('replaceSubscription', { body: { subscribeId, orderId } });
}

// Platforms, mailboxes and accounts --------------------------------------------------------

export function getPlatforms(): Promise<AdminPlatform[]> {
  return callApi('getAllPlatforms', {});
}

/** The platform's and the unassigned mailboxes, passwords included (the server audits the read). The spec spells it `plaformId`. */
export function getMailboxes(platformId: number): Promise<Mailbox[]> {
  return callApi('listMailboxes', { query: { plaformId: platformId } });
}

/** A new mailbox for the platform (admin only); its password is shown this once. */
export function createMailbox(platformId: number): Promise<Mailbox> {
  return callApi('createMailbox', { query: { plaformId: platformId } });
}

/** A platform account with its slots (admin only): new capacity for waiting orders. */
export function createSubscription(payload: NewSubscription): Promise<CreatedAccount> {
  return callApi('createAccount', { body: payload });
}

// Dashboard --------------------------------------------------------------------------------

/** Platforms named in `languageId`, the admin's language. */
export function getDashboard(languageId: number): Promise<Dashboard> {
  return callApi('getDashboard', { query: { languageId: languageId as 1 | 2 } });
}
