import {
  ALERT_KINDS,
  ALERT_MAIL_ACTIONS,
  MAIL_AUTHENTICATIONS,
  type AccountHealthEntry,
  type AccountHealthView,
  type AccountVoices,
  type AlertKind,
} from '@subshare/core';

type CauseKind = AlertKind | 'unrecognised' | 'buyerReports' | 'staff';
const CAUSE_KINDS: readonly string[] = [...ALERT_KINDS, 'unrecognised', 'buyerReports', 'staff'];

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const minutes = (ms: number | null) => (ms === null ? null : Math.ceil(ms / 60_000));
const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** Why an account is in its state, with only what may be shown: never a code or a link (none is stored). */
function serializeCause(cause: Record<string, unknown> | null) {
  if (!cause) return null;
  return {
    kind: (CAUSE_KINDS.includes(String(cause.kind)) ? cause.kind : 'unrecognised') as CauseKind,
    subject: textOrNull(cause.subject),
    sender: textOrNull(cause.sender),
    receivedAt: textOrNull(cause.receivedAt),
    reason: textOrNull(cause.reason),
    by: textOrNull(cause.by),
  };
}

export function serializeAccountHealth(entry: AccountHealthEntry, voices: AccountVoices = { reports: [], incident: null, breaksPerHour: 0 }) {
  return {
    accountId: entry.id,
    platformId: entry.platformId,
    platformName: entry.platformName,
    email: entry.email,
    slotsCount: entry.slotsCount,
    isActive: entry.isActive,
    state: entry.state,
    since: iso(entry.since),
    cause: serializeCause(entry.cause),
    buyers: entry.buyers.map((buyer) => ({
      subscriptionId: buyer.subscriptionId,
      userId: buyer.userId,
      slot: buyer.slot,
      endTime: buyer.endsAt.toISOString(),
      status: buyer.status,
      toSubscriptionId: buyer.toSubscriptionId,
      toAccountId: buyer.toAccountId,
      toSlot: buyer.toSlot,
      movedAt: iso(buyer.movedAt),
      lostMinutes: minutes(buyer.lostMs),
      extendedMinutes: minutes(buyer.extendedMs),
    })),
    reports: voices.reports.map((report) => ({
      reportId: report.id,
      subscriptionId: report.subscriptionId,
      userId: report.userId,
      kind: report.kind,
      note: report.note,
      reportedAt: report.reportedAt.toISOString(),
      confirmedAt: iso(report.confirmedAt),
    })),
    incident: voices.incident
      ? {
          incidentId: voices.incident.id,
          openedAt: voices.incident.openedAt.toISOString(),
          lastHeldAt: voices.incident.lastHeldAt.toISOString(),
          held: voices.incident.held,
          heldAccountIds: voices.incident.accountIds,
          breaksPerHour: voices.breaksPerHour,
        }
      : null,
    // Subject, sender, time and verdicts only: the shop never stores a mail's body, code or link.
    mails: entry.mails.map((mail) => ({
      id: mail.id,
      receivedAt: mail.receivedAt.toISOString(),
      sender: mail.sender,
      subject: mail.subject,
      kind: (ALERT_KINDS.includes(mail.kind as AlertKind) ? mail.kind : 'unrecognised') as AlertKind | 'unrecognised',
      action: mail.action && ALERT_MAIL_ACTIONS.includes(mail.action) ? mail.action : null,
      authentication: mail.authentication && MAIL_AUTHENTICATIONS.includes(mail.authentication) ? mail.authentication : null,
      linkDropped: mail.linkDropped,
    })),
  };
}

export function serializeSetHealth(account: AccountHealthView) {
  return { accountId: account.id, state: account.state, since: iso(account.since) };
}
