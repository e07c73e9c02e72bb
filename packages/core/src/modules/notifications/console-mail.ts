/**
 * The console mail backend of demo mode: without SMTP_URL nobody can deliver an e-mail, and a
 * newcomer who signs up would never see the verification code (the outbox keeps code e-mails
 * masked, for staff must not read codes). So in demo mode without SMTP every e-mail written to
 * the outbox is also printed on standard output, as the recipient would read it, code or link
 * included. This goes to the terminal of whoever started the demo shop, never into the outbox
 * nor through the JSON logger; production mode (DATABASE_URL set) never prints a body.
 */
import { inject, injectable } from 'inversify';
import type { AppConfig } from '../../shared/config.js';
import { TOKENS } from '../../shared/tokens.js';

export interface ConsoleEmail {
  outboxId: number;
  kindName: string;
  to: string;
  subject: string;
  text: string;
}

/** First and last line of a printed e-mail: what a reader (or a test) looks for. */
export const CONSOLE_MAIL_BEGIN = '┌── e-mail (demo mode without SMTP_URL: printed here, not sent) ──';
export const CONSOLE_MAIL_END = '└── end of e-mail ──';

@injectable()
export class ConsoleMail {
  constructor(@inject(TOKENS.Config) private readonly config: AppConfig) {}

  /** Demo mode without SMTP only: a production shop never prints a body, whatever else is set. */
  get enabled(): boolean {
    return this.config.mode === 'demo' && this.config.mail.smtpUrl === undefined;
  }

  print(email: ConsoleEmail): void {
    if (this.enabled) process.stdout.write(formatConsoleEmail(email));
  }
}

/**
 * One framed block, written in one piece so log lines cannot cut into it. Control characters
 * are dropped: the body holds what users typed (names, addresses), and a terminal must not run
 * escape sequences from it.
 */
export function formatConsoleEmail(email: ConsoleEmail): string {
  const clean = (value: string) =>
    value
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, ' ')
      // eslint-disable-next-line no-control-regex -- these are what is removed
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '');
  const body = clean(email.text).split('\n');
  return (
    [
      CONSOLE_MAIL_BEGIN,
      `│ To:      ${clean(email.to)}`,
      `│ Subject: ${clean(email.subject)}`,
      `│ (outbox e-mail ${email.outboxId}, ${email.kindName})`,
      '│',
      ...body.map((line) => (line ? `│ ${line}` : '│')),
      CONSOLE_MAIL_END,
    ].join('\n') + '\n'
  );
}
