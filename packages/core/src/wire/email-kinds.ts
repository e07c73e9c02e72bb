/**
 * The e-mail kinds as the API names them: numbers stored in `email_outbox.kind` and used by the
 * spec's `sendemail` call (0 to 6 come from the spec, 7 and up are ours). Plain constants, read by
 * the wire schemas (and so by the web client) and by the notifications module, which adds what
 * each kind carries (notifications/email-kinds.ts).
 */
export const EMAIL_KIND = {
  welcome: 0,
  purchasedActiveSubscribe: 1,
  purchasedNotActiveSubscribe: 2,
  subscribeActive: 3,
  trustPilotInvite: 4,
  verificationCode: 5,
  appleTVActive: 6,
  expiryReminder: 7,
  subscriptionEnded: 8,
  subscriptionReplaced: 9,
  refunded: 10,
  accountBroken: 11,
  autoRenewal: 12,
  platformIncident: 13,
  renewalProviderError: 14,
  /** Issue 37: an inviter earned referral credit. */
  referralReward: 15,
} as const;

export type EmailKindName = keyof typeof EMAIL_KIND;
export type EmailKind = (typeof EMAIL_KIND)[EmailKindName];

export const EMAIL_KIND_NAMES = Object.fromEntries(Object.entries(EMAIL_KIND).map(([name, kind]) => [kind, name])) as Record<EmailKind, EmailKindName>;

/** Kinds that go to the staff alert addresses only (STAFF_ALERT_EMAILS), never to a user. */
export const STAFF_ONLY_EMAIL_KINDS: readonly EmailKind[] = [EMAIL_KIND.accountBroken, EMAIL_KIND.platformIncident, EMAIL_KIND.renewalProviderError];

/**
 * The kinds staff may send from a user's page (`sendemail`, the admin's SEND EMAIL dialog): every
 * kind but the staff alerts and the renewal pass's own (send-email.flow.ts refuses those).
 */
export const STAFF_SENDABLE_EMAIL_KINDS: readonly EmailKind[] = Object.values(EMAIL_KIND).filter(
  (kind) => !STAFF_ONLY_EMAIL_KINDS.includes(kind) && kind !== EMAIL_KIND.autoRenewal && kind !== EMAIL_KIND.referralReward,
);

export function isEmailKind(value: unknown): value is EmailKind {
  return typeof value === 'number' && Object.hasOwn(EMAIL_KIND_NAMES, value);
}
