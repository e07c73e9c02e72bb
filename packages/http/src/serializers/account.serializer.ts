import type { MailboxView, PlatformAccountView } from '@subshare/core';

/** A platform account as staff see it after `subscribe/insert`: never its password. */
export function serializeAccount(account: PlatformAccountView) {
  return {
    id: account.id,
    platformId: account.platformId,
    email: account.email,
    slotsCount: account.slotsCount,
    femail: account.femail,
    mailboxId: account.mailboxId,
  };
}

/** The spec's Mailbox (id, email, password), plus platformId (null: not assigned to a platform yet). */
export function serializeMailbox(mailbox: MailboxView) {
  return { id: mailbox.id, email: mailbox.email, password: mailbox.password, platformId: mailbox.platformId };
}
