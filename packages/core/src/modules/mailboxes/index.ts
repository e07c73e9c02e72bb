// The mailboxes module's public face: flows, http, worker and cli import only this.
export { MAILBOX_SOURCE, MAILBOX_HEARD_SINK } from './tokens.js';
export { classifyAlert, fromSender, linkDropped, subjectToKeep, type HeardMail, type HeardMailSink, type AlertVerdict } from './account-alerts.js';
export { mailboxesModule } from './mailboxes.module.js';
export { MailboxReaderService, type MailboxTarget, type FoundMail } from './mailbox-reader.service.js';
export { MAILBOX_LOCK_NAMESPACE, READ_WANTED_CHANNEL } from './mailbox-reader.service.js';
export { PUBLISHED_CHANNEL as MAILBOX_PUBLISHED_CHANNEL } from './mailbox-board.repository.js';
export type { PlatformMailKind, PlatformMail } from './platform-mail.js';
export { parsePlatformMail, speaksFor } from './platform-mail.js';
export type { PlatformVoice } from './platform-mail.js';
export { parseFrom, parseMailboxList, type MailAddress } from './mail-address.js';
export {
  AuthservMailAuthenticator,
  DkimMailAuthenticator,
  cachedLookups,
  DNS_ANSWER_MS,
  parseAuthenticationResults,
  type MailAuthenticator,
  type MailCheck,
} from './mail-authentication.js';
export { takeIn, KEPT_BYTES } from './mail-intake.js';
export type { MailSource, MailboxLogin, FetchedMessage, MailWatch, MailWatchHandlers } from './mail-source.js';
export { MailSourceError } from './mail-source.js';
