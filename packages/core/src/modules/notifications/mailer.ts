/**
 * The SMTP side of delivery: one nodemailer transport built from SMTP_URL, with timeouts short
 * enough that a hanging server cannot outlive the delivery job (expireInSeconds 120).
 */
import { inject, injectable } from 'inversify';
import { createTransport, type Transporter } from 'nodemailer';
import type { AppConfig } from '../../shared/config.js';
import { fail } from '../../shared/errors.js';
import { TOKENS } from '../../shared/tokens.js';

/** Below the delivery job's expireInSeconds (120 s), so a job never expires while its send still runs. */
const SEND_TIMEOUT_MS = 90_000;

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  headers: Record<string, string>;
}

@injectable()
export class Mailer {
  private transport?: Transporter;

  constructor(@inject(TOKENS.Config) private readonly config: AppConfig) {}

  get configured(): boolean {
    return this.config.mail.smtpUrl !== undefined;
  }

  get from(): string {
    return this.config.mail.from;
  }

  /** Resolves once the SMTP server has accepted the message; rejects otherwise. */
  async send(email: OutgoingEmail): Promise<{ messageId: string }> {
    const info = await this.connection().sendMail({
      from: this.config.mail.from,
      to: email.to,
      subject: email.subject,
      html: email.html,
      text: email.text,
      messageId: email.messageId,
      headers: email.headers,
      // The whole conversation, whatever the server does, ends before the job expires.
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    return { messageId: (info as { messageId?: string }).messageId ?? email.messageId };
  }

  close(): void {
    this.transport?.close();
    this.transport = undefined;
  }

  private connection(): Transporter {
    const url = this.config.mail.smtpUrl;
    if (!url) throw fail('smtp_not_configured');
    this.transport ??= createTransport({
      url,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      logger: false,
      debug: false,
    });
    return this.transport;
  }
}

/**
 * Describes an SMTP failure for `last_error` and the logs: the error's code, the server's reply
 * code and its message, one line, short, with the SMTP password masked should a server ever echo it.
 */
export function describeSmtpError(error: unknown, smtpUrl: string | undefined): string {
  const e = (error ?? {}) as { message?: unknown; code?: unknown; responseCode?: unknown; command?: unknown };
  const parts = [
    typeof e.code === 'string' ? e.code : undefined,
    typeof e.responseCode === 'number' ? `SMTP ${e.responseCode}` : undefined,
    typeof e.command === 'string' ? `during ${e.command.split(' ')[0]}` : undefined,
    typeof e.message === 'string' ? e.message : String(error),
  ].filter(Boolean);
  let text = parts.join(': ');
  for (const secret of credentialsOf(smtpUrl)) text = text.split(secret).join('***');
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 500);
}

function credentialsOf(smtpUrl: string | undefined): string[] {
  if (!smtpUrl) return [];
  try {
    const url = new URL(smtpUrl);
    return [url.password, decodeURIComponent(url.password)].filter((value) => value.length >= 3);
  } catch {
    return [];
  }
}
