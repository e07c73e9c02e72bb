/**
 * The staff page, the audit log and the outbox (issue 15; beyond the spec): staff roles (admins),
 * the audit log (admins), the outbox with a preview and a retry (moderators and admins). Bearer
 * token on every call; imported by the admin chunk only.
 */
import type { accountHealth, email, staff } from '@subshare/core/wire';
import { callApi } from './calls';

/** A moderator (1) or admin (2), with when they got the role. */
export type StaffMember = staff.StaffMemberAnswer;
/** A role change: the role before and after; `changed: false` when the user had it already. */
export type RoleChange = staff.SetRoleAnswer;
/** One audit entry: who did what to what. */
export type AuditEntry = staff.AuditEntryAnswer;
/** The audit log's filters, as the server reads them (empty ones left out). */
export type AuditFilter = Omit<staff.AuditQuery, 'page' | 'limit'>;
/** One page of the outbox, without bodies. */
export type OutboxPage = email.OutboxPageAnswer;
export type OutboxEmailSummary = OutboxPage['items'][number];
/** One e-mail with its bodies; a one-time code is masked by the server. */
export type OutboxEmail = email.OutboxEmailAnswer;
export type OutboxRetry = email.OutboxRetryAnswer;
export type PagesCount = staff.PageCountAnswer;

export function getStaffList(): Promise<StaffMember[]> {
  return callApi('listStaff', {});
}

/** role: 0 user, 1 moderator, 2 admin; 409 `last_admin` when it would leave no admin. */
export function setRole(emailAddress: string, role: 0 | 1 | 2): Promise<RoleChange> {
  return callApi('setRole', { body: { email: emailAddress, role } });
}

export function getAuditLog(filter: AuditFilter, page: number, limit: number): Promise<AuditEntry[]> {
  return callApi('listAuditLog', { query: { ...filter, page, limit } });
}

export function getAuditPages(filter: AuditFilter, limit: number): Promise<PagesCount> {
  return callApi('countAuditPages', { query: { ...filter, limit } });
}

export function getOutbox(page: number, limit: number, status?: OutboxEmailSummary['status']): Promise<OutboxPage> {
  return callApi('listOutbox', { query: { page, limit, status } });
}

export function getOutboxEmail(id: number): Promise<OutboxEmail> {
  return callApi('getOutboxEmail', { params: { id } });
}

/** Only a failed e-mail is queued again; `queued: false` when it was waiting already. */
export function retryOutboxEmail(id: number): Promise<OutboxRetry> {
  return callApi('retryOutboxEmail', { body: { id } });
}

/** One platform account by health (issue 29), with its buyers and where they went. */
export type AccountHealth = accountHealth.AccountHealthItem;

/** Platform names in `languageId` (the interface language). */
export function getAccountHealth(languageId: number, platformId?: number): Promise<AccountHealth[]> {
  return callApi('getAccountHealth', { query: { platformId, languageId: languageId as 1 | 2 } });
}

export function setAccountHealth(accountId: number, state: AccountHealth['state'], reason: string): Promise<unknown> {
  return callApi('setAccountHealth', { body: { accountId, state, reason } });
}

/** A buyer's problem report is right (issue 33): the account turns broken and its buyers move. 404 `report_not_found`. */
export function confirmReport(reportId: number): Promise<unknown> {
  return callApi('confirmReport', { body: { reportId } });
}

/** 409 `nothing_to_extend` when every moved buyer has their time back already. */
export function extendLostTime(accountId: number): Promise<accountHealth.ExtendLostTimeAnswer> {
  return callApi('extendLostTime', { body: { accountId } });
}
