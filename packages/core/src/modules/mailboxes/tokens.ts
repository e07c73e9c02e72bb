/** The MailSource port (null when MAILBOX_IMAP_URL is not set: mailboxes are not read). */
export const MAILBOX_SOURCE = Symbol.for('subshare.mailboxes.MailSource');

/** Where the reader hands every mail it reads or hears (account alerts); optional. */
export const MAILBOX_HEARD_SINK = Symbol.for('subshare.mailboxes.HeardMailSink');
