/**
 * The words of issue 33 ("only the platform speaks for the platform"), shared by the mailbox
 * reader, the account-health flow, the wire and the admin pages.
 *
 * A platform's mail counts only when it passes DMARC for its From domain: a DKIM signature whose
 * `d=` aligns with that domain, checked against the keys in DNS (or, where the shop's own mail
 * server authenticates, its Authentication-Results under the configured authserv-id).
 */

/** `verified`, or why a mail is not: no signature, a signature that does not verify, or one by another domain. */
export const MAIL_AUTHENTICATIONS = ['verified', 'noSignature', 'badSignature', 'notAligned'] as const;
export type MailAuthentication = (typeof MAIL_AUTHENTICATIONS)[number];

/**
 * What a recorded platform mail did to its account. `held`: it would have broken the account but
 * the platform's circuit breaker is open, so staff decide. `unclassified`: verified, but no rule
 * knows it (listed for staff; changes nothing). `unverified`: not the platform's (changes nothing).
 */
export const ALERT_MAIL_ACTIONS = ['none', 'attention', 'broken', 'held', 'unclassified', 'unverified'] as const;
export type AlertMailAction = (typeof ALERT_MAIL_ACTIONS)[number];
