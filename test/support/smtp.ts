/**
 * A real SMTP server for tests (smtp-server on loopback) that keeps every message it accepts,
 * parsed with mailparser. It can be stopped and started again on the same port, to play an
 * outage: while stopped, connections are refused. It can also be paused, to play a slow server:
 * while paused, every message is received but not answered (no 250) until `resume()`, so the
 * sender's deliveries pile up; `held` shows what is waiting, in order of arrival.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface CapturedMail {
  /** Envelope sender and recipients, as the client gave them. */
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** The user the client logged in as, if it did. */
  user?: string;
}

export interface TestSmtpServerOptions {
  /** Accept only this user and password (AUTH PLAIN/LOGIN over plain text, as tests need). */
  auth?: { user: string; pass: string };
}

export class TestSmtpServer {
  readonly messages: CapturedMail[] = [];
  /** Messages received while paused, not yet answered: they join `messages` on `resume()`, in this order. */
  readonly held: CapturedMail[] = [];
  private server?: SMTPServer;
  private gate?: { opened: Promise<void>; open(): void };
  private portNumber = 0;

  constructor(private readonly options: TestSmtpServerOptions = {}) {}

  get port(): number {
    return this.portNumber;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** `smtp://[user:pass@]127.0.0.1:<port>` for SMTP_URL. */
  get url(): string {
    const auth = this.options.auth ? `${encodeURIComponent(this.options.auth.user)}:${encodeURIComponent(this.options.auth.pass)}@` : '';
    return `smtp://${auth}127.0.0.1:${this.portNumber}`;
  }

  /** Starts listening: on a free port the first time, on the same port after a stop. */
  async start(): Promise<void> {
    if (this.server) return;
    const server = new SMTPServer(this.serverOptions());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.portNumber, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', () => undefined); // a client hanging up mid-session is not a test failure
    const address = server.server.address();
    if (address && typeof address === 'object') this.portNumber = address.port;
    this.server = server;
  }

  /** Stops listening and drops open sessions: from now on connections are refused. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.resume(); // held sessions get their answer instead of hanging the close
    this.server = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** From now on, a received message waits for `resume()` before the server accepts it. */
  pause(): void {
    if (this.gate) return;
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.gate = { opened, open };
  }

  /** Accepts the held messages, in the order they arrived, and every later one at once. */
  resume(): void {
    const gate = this.gate;
    this.gate = undefined;
    gate?.open();
  }

  messagesTo(address: string): CapturedMail[] {
    const wanted = address.toLowerCase();
    return this.messages.filter((message) => message.to.some((to) => to.toLowerCase() === wanted));
  }

  private serverOptions(): SMTPServerOptions {
    const auth = this.options.auth;
    return {
      logger: false,
      disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !auth,
      allowInsecureAuth: true,
      closeTimeout: 200,
      onAuth: (credentials, _session, callback) => {
        if (auth && credentials.username === auth.user && credentials.password === auth.pass) return callback(null, { user: credentials.username });
        return callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw)
            .then(async (parsed) => {
              const mail: CapturedMail = {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
                raw,
                parsed,
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                messageId: parsed.messageId ?? '',
                user: typeof session.user === 'string' ? session.user : undefined,
              };
              const gate = this.gate;
              if (gate) {
                this.held.push(mail);
                await gate.opened;
                this.held.splice(this.held.indexOf(mail), 1);
              }
              this.messages.push(mail);
              callback();
            })
            .catch(callback);
        });
      },
    };
  }
}

export async function startSmtpServer(options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const smtp = new TestSmtpServer(options);
  await smtp.start();
  return smtp;
}
