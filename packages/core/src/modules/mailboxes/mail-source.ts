/**
 * The port behind which IMAP lives: the reader asks for recent messages of one mailbox, or to
 * watch it for new ones. The imapflow adapter is the production implementation; tests use a
 * real Dovecot through the same adapter.
 */
import type { MailAuthentication } from '../../validation/mail-trust.js';
import type { ReadMail } from './platform-mail.js';

/** Where a mailbox lives and how to log in. The password is a secret: never logged. */
export interface MailboxLogin {
  address: string;
  password: string;
}

export interface FetchedMessage {
  uid: number;
  /** The folder's UIDVALIDITY when the message was read (with the UID, the message's key in the mailbox). */
  uidValidity?: string;
  /** When the server received it (IMAP INTERNALDATE). */
  receivedAt: Date;
  /** The header fields and text parts of its first 2 MB (mail-intake.ts); the rest streamed past, never kept. */
  mail: ReadMail;
  /** Whether the message went on past what was parsed. */
  truncated: boolean;
  /** Whether it passed DMARC for its From domain, or why not (mail-authentication.ts). */
  authentication: MailAuthentication;
}

export interface MailWatch {
  /**
   * Starts reporting: first whatever arrived since the first read (so nothing that lands while the
   * caller takes in the first read is lost), then each new message as it arrives. Until this is
   * called nothing is reported, not even the end of the watch.
   */
  begin(): void;
  /** Ends the watch and its connection; safe to call twice. */
  stop(): Promise<void>;
}

export interface MailWatchHandlers {
  /** New messages, in the order they arrived. */
  onMessages(messages: FetchedMessage[]): void;
  /** The watch ended by itself (connection lost, server gone); `error` when it failed. */
  onEnd(error?: unknown): void;
}

export interface MailSource {
  /** Messages of the inbox received at or after `since`, newest first, at most `limit`. */
  recent(login: MailboxLogin, since: Date, limit: number): Promise<FetchedMessage[]>;
  /**
   * Reads the recent messages as `recent` does, then keeps the connection open and, once `begin()`
   * is called, reports new messages as they arrive (IMAP IDLE). Resolves once the first read is done.
   */
  watch(login: MailboxLogin, since: Date, limit: number, handlers: MailWatchHandlers): Promise<{ watch: MailWatch; messages: FetchedMessage[] }>;
}

/** The mailbox server could not be reached, refused the login, or took too long. */
export class MailSourceError extends Error {
  constructor(
    message: string,
    readonly reason: 'unreachable' | 'login' | 'timeout' | 'protocol',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MailSourceError';
  }
}
