/**
 * The one description of every environment variable subshare reads: its name, what it means and
 * its default. The loader (config.ts) can only read names listed here (the type says so, a test
 * checks that each one is read), and `.env.example` and docs/configuration.md's table are rendered
 * from this table. A new variable: add a row here, read it in config.ts, then `npm run docs`
 * (tests fail while either is stale).
 */
export interface ConfigVariable {
  name: string;
  /** Heading in `.env.example`. */
  group: string;
  meaning: string;
  /** The default, in words when it is not a literal value. */
  default: string;
  /** What `.env.example` shows after `NAME=` (commented out): the literal default, or an example. */
  sample?: string;
  /** Its value is never echoed in a configuration problem. */
  secret?: boolean;
}

export const CONFIG_VARIABLES = [
  {
    name: 'DATABASE_URL',
    group: 'Database and local state',
    meaning: 'PostgreSQL connection string; setting it switches to production mode',
    default: 'unset: demo mode, an embedded PostgreSQL under DATA_DIR',
    sample: 'postgres://shop:secret@db.internal:5432/subshare',
    secret: true,
  },
  {
    name: 'DATABASE_STATEMENT_TIMEOUT_MS',
    group: 'Database and local state',
    meaning: 'serve/start/worker: PostgreSQL cancels a statement after this many ms (100 to 600000); past it plus 1 s the call answers 503',
    default: '5000',
    sample: '5000',
  },
  {
    name: 'DATABASE_ACQUIRE_TIMEOUT_MS',
    group: 'Database and local state',
    meaning:
      'serve/start/worker: a call waiting for a pool connection answers 503 once no connection has come free for this many ms (100 to 60000), and opening one gives up after it; while connections keep coming free it waits its turn, up to 20 s',
    default: '3000',
    sample: '3000',
  },
  {
    name: 'DATABASE_POOL_MAX',
    group: 'Database and local state',
    meaning: 'serve/start/worker: connections of the request pool per process (1 to 100); each process also holds up to 4 for jobs and 1 for events',
    default: '10',
    sample: '10',
  },
  {
    name: 'DATA_DIR',
    group: 'Database and local state',
    meaning: 'local state: embedded database, generated demo secrets',
    default: '.data',
    sample: '.data',
  },
  { name: 'PORT', group: 'HTTP', meaning: 'HTTP listen port', default: '3000', sample: '3000' },
  { name: 'HOST', group: 'HTTP', meaning: 'HTTP listen address', default: '127.0.0.1', sample: '127.0.0.1' },
  {
    name: 'PUBLIC_URL',
    group: 'HTTP',
    meaning:
      'external base URL, used in e-mails and provider return URLs; unset, a command (send-email, expire-due, a separate worker) takes the one the shop serving the same DATA_DIR recorded there',
    default: 'http://127.0.0.1:$PORT',
    sample: 'https://shop.example.com',
  },
  {
    name: 'TRUST_PROXY',
    group: 'HTTP',
    meaning: 'Express `trust proxy`: X-Forwarded-For is believed only when set (true, a hop count, or addresses)',
    default: 'unset: not trusted',
  },
  {
    name: 'COUNTRY_HEADER',
    group: 'HTTP',
    meaning: "a header set by your CDN with the visitor's country, e.g. cf-ipcountry",
    default: 'unset: Accept-Language decides',
  },
  { name: 'LOG_LEVEL', group: 'HTTP', meaning: 'pino log level (fatal, error, warn, info, debug, trace)', default: 'info', sample: 'info' },
  {
    name: 'METRICS_TOKEN',
    group: 'HTTP',
    meaning: 'turns on GET /metrics (Prometheus text); a scrape must send Authorization: Bearer <token>; at least 16 characters',
    default: 'unset: /metrics answers 404',
    secret: true,
  },
  {
    name: 'SMTP_URL',
    group: 'Mail',
    meaning: 'smtp:// or smtps://user:pass@host:port for outgoing mail',
    default:
      'unset: mail stays in the outbox (demo mode also prints every e-mail on the console, which counts as delivered); with Stripe keys, no renewal reminder is delivered, so no automatic renewal is charged (start and dashboard warn)',
    sample: 'smtp://user:pass@smtp.example.com:587',
    secret: true,
  },
  { name: 'MAIL_FROM', group: 'Mail', meaning: 'sender address', default: 'subshare <no-reply@localhost>', sample: 'subshare <no-reply@localhost>' },
  { name: 'STRIPE_SECRET_KEY', group: 'Payments', meaning: 'card payments (method 1): Stripe secret key', default: 'unset: the demo provider', secret: true },
  {
    name: 'STRIPE_WEBHOOK_SECRET',
    group: 'Payments',
    meaning: 'Stripe webhook signing secret (set together with STRIPE_SECRET_KEY)',
    default: 'unset',
    secret: true,
  },
  { name: 'STRIPE_API_BASE', group: 'Payments', meaning: 'Stripe API base URL (tests and staging)', default: "Stripe's" },
  { name: 'COINPAL_MERCHANT_NO', group: 'Payments', meaning: 'crypto payments (method 2): CoinPal merchant number', default: 'unset: the demo provider' },
  {
    name: 'COINPAL_SECRET_KEY',
    group: 'Payments',
    meaning: 'CoinPal secret key (set together with COINPAL_MERCHANT_NO)',
    default: 'unset',
    secret: true,
  },
  { name: 'COINPAL_API_BASE', group: 'Payments', meaning: 'CoinPal API base URL (tests and staging)', default: "CoinPal's" },
  {
    name: 'PAYSSION_API_KEY',
    group: 'Payments',
    meaning: 'Korean methods (3 to 6): Payssion API key',
    default: 'unset: the demo provider',
    secret: true,
  },
  {
    name: 'PAYSSION_SECRET_KEY',
    group: 'Payments',
    meaning: 'Payssion secret key (set together with PAYSSION_API_KEY)',
    default: 'unset',
    secret: true,
  },
  { name: 'PAYSSION_API_BASE', group: 'Payments', meaning: 'Payssion API base URL (tests and staging)', default: "Payssion's" },
  {
    name: 'ALLOW_DEMO_PAYMENTS',
    group: 'Payments',
    meaning: 'production only: serve methods without a provider through the demo provider',
    default: 'false',
    sample: 'false',
  },
  {
    name: 'REFUND_FEE_PERCENT',
    group: 'Refunds',
    meaning: 'the refund fee: this percentage of the amount paid (0 to 100, up to 2 decimals), plus the fixed fee of the currency',
    default: '5',
    sample: '5',
  },
  { name: 'REFUND_FEE_EUR', group: 'Refunds', meaning: 'the fixed part of the refund fee for EUR orders, in euros (e.g. 0.50)', default: '0', sample: '0' },
  { name: 'REFUND_FEE_KRW', group: 'Refunds', meaning: 'the fixed part of the refund fee for KRW orders, in whole won', default: '0', sample: '0' },
  {
    name: 'REFUND_WINDOW_HOURS',
    group: 'Refunds',
    meaning: 'refunds within this many hours of payment follow the policy; later ones need staff to override (audited)',
    default: '24',
    sample: '24',
  },
  {
    name: 'RENEWAL_NOTICE_HOURS',
    group: 'Automatic renewal',
    meaning:
      'an automatic renewal charge is made only this many hours (1 to 336) after its reminder was sent; a reminder sent later than that before the end date moves the charge, the slot held meanwhile',
    default: '48',
    sample: '48',
  },
  { name: 'GOOGLE_CLIENT_ID', group: 'Social login', meaning: 'Google sign-in client id', default: 'unset: the button is hidden' },
  { name: 'GOOGLE_API_BASE', group: 'Social login', meaning: 'Google API base URL (tests and staging)', default: "Google's" },
  { name: 'NAVER_CLIENT_ID', group: 'Social login', meaning: 'Naver login client id', default: 'unset: the button is hidden' },
  {
    name: 'NAVER_CLIENT_SECRET',
    group: 'Social login',
    meaning: 'Naver login client secret (set together with NAVER_CLIENT_ID)',
    default: 'unset',
    secret: true,
  },
  { name: 'NAVER_API_BASE', group: 'Social login', meaning: 'Naver API base URL (tests and staging)', default: "Naver's" },
  { name: 'KAKAO_REST_API_KEY', group: 'Social login', meaning: 'Kakao login REST API key', default: 'unset: the button is hidden', secret: true },
  { name: 'KAKAO_API_BASE', group: 'Social login', meaning: 'Kakao API base URL (tests and staging)', default: "Kakao's" },
  {
    name: 'ADMIN_EMAIL',
    group: 'Secrets and the first admin',
    meaning: 'the first admin, created at start if no admin exists (set together with ADMIN_PASSWORD)',
    default: 'demo: admin@subshare.localhost, generated and printed once',
  },
  {
    name: 'ADMIN_PASSWORD',
    group: 'Secrets and the first admin',
    meaning: "the first admin's password, 8 to 18 characters",
    default: 'demo: generated and printed once',
    secret: true,
  },
  {
    name: 'CREDENTIALS_KEY',
    group: 'Secrets and the first admin',
    meaning: 'required in production: 32 bytes (64 hex digits or base64) encrypting stored account and mailbox passwords; keep it backed up',
    default: 'demo: generated under DATA_DIR',
    secret: true,
  },
  {
    name: 'TOKEN_SECRET',
    group: 'Secrets and the first admin',
    meaning: 'required in production: at least 32 characters, signs login tokens',
    default: 'demo: generated under DATA_DIR',
    secret: true,
  },
  { name: 'MAILBOX_DOMAIN', group: 'Mailboxes', meaning: 'domain for new mailboxes', default: 'mail.localhost', sample: 'mail.localhost' },
  {
    name: 'MAILBOX_IMAP_URL',
    group: 'Mailboxes',
    meaning: 'the IMAP server that holds the mailboxes (imap:// or imaps://host:port)',
    default: 'unset: mailboxes are not read',
    sample: 'imaps://mail.example.com:993',
  },
  {
    name: 'MAILBOX_IMAP_IDLE',
    group: 'Mailboxes',
    meaning:
      'keep IMAP IDLE open on polled mailboxes (one connection per mailbox in the whole cluster, held by the process that owns it), so links and codes are known the moment they land',
    default: 'true',
    sample: 'true',
  },
  {
    name: 'MAILBOX_IMAP_TIMEOUT_SECONDS',
    group: 'Mailboxes',
    meaning:
      'budget of one mailbox read (connect, log in, search, fetch), 1 to 60; past it the call answers 503 (a process waiting for the owner of the mailbox to read it: this plus 1 s)',
    default: '10',
    sample: '10',
  },
  {
    name: 'MAIL_DNS_SERVERS',
    group: 'Mailboxes',
    meaning:
      "comma-separated host:port of the DNS servers asked for the DKIM keys and DMARC records that prove a platform mail is the platform's (docs/mailboxes.md)",
    default: "unset: the system's DNS servers",
    sample: '1.1.1.1:53,8.8.8.8:53',
  },
  {
    name: 'MAIL_AUTHSERV_ID',
    group: 'Mailboxes',
    meaning:
      "trust instead the Authentication-Results header of this authserv-id (the shop's own mail server, which must remove incoming headers with that id) and ignore any other",
    default: 'unset: the shop checks DKIM and DMARC itself',
    sample: 'mx.example.com',
  },
  {
    name: 'STAFF_ALERT_EMAILS',
    group: 'Mailboxes',
    meaning:
      'comma-separated staff addresses told when a platform account turns broken (one e-mail per broken account: the mail that broke it, its buyers and where they went) and when the payment provider fails a renewal charge for a reason other than the card (one e-mail per charge: its message and request id)',
    default: 'unset: no staff alert e-mails (the admin area still lists broken accounts and failed renewals)',
    sample: 'ops@example.com,owner@example.com',
  },
  {
    name: 'ACCOUNT_BREAKS_PER_HOUR',
    group: 'Account health',
    meaning:
      'the circuit breaker: at most this many of one platform\'s accounts turn broken by themselves (platform mail, buyers\' reports) within an hour, 1 to 1000; a further one is held (marked attention, its buyers stay), staff get one "platform-wide incident" e-mail and decide',
    default: '2',
    sample: '2',
  },
  {
    name: 'ACCOUNT_REPORTS_TO_BREAK',
    group: 'Account health',
    meaning: 'how many different buyers of one account must report "it doesn\'t work" within an hour to break it, 2 to 100 (one buyer alone never can)',
    default: '2',
    sample: '2',
  },
  { name: 'BUSINESS_NAME', group: 'Business details (footer, policy pages, e-mails)', meaning: 'company name', default: 'demo value' },
  { name: 'BUSINESS_REG_NO', group: 'Business details (footer, policy pages, e-mails)', meaning: 'business registration number', default: 'demo value' },
  {
    name: 'BUSINESS_MAIL_ORDER_NO',
    group: 'Business details (footer, policy pages, e-mails)',
    meaning: 'mail-order sales registration number',
    default: 'demo value',
  },
  { name: 'BUSINESS_ADDRESS', group: 'Business details (footer, policy pages, e-mails)', meaning: 'postal address', default: 'demo value' },
  { name: 'BUSINESS_REPRESENTATIVE', group: 'Business details (footer, policy pages, e-mails)', meaning: 'representative', default: 'demo value' },
  { name: 'SUPPORT_PHONE', group: 'Business details (footer, policy pages, e-mails)', meaning: 'support phone number', default: 'demo value' },
  { name: 'SUPPORT_EMAIL', group: 'Business details (footer, policy pages, e-mails)', meaning: 'support e-mail address', default: 'demo value' },
] as const satisfies readonly ConfigVariable[];

export type ConfigVariableName = (typeof CONFIG_VARIABLES)[number]['name'];

const BY_NAME: ReadonlyMap<string, ConfigVariable> = new Map(CONFIG_VARIABLES.map((variable) => [variable.name, variable]));

export function configVariable(name: ConfigVariableName): ConfigVariable {
  return BY_NAME.get(name)!;
}

/** The text of `.env.example`: every variable, commented out, with its meaning and default. */
export function renderEnvExample(): string {
  const lines = [
    '# subshare configuration. Copy to .env (real environment variables win) and uncomment what you set.',
    '# Without DATABASE_URL subshare runs in demo mode and every variable has a safe default; with it,',
    '# production mode, CREDENTIALS_KEY and TOKEN_SECRET are required and every problem stops start-up.',
    '# Rendered from packages/core/src/shared/config-variables.ts (test/unit/config-variables.test.ts).',
  ];
  let group = '';
  for (const variable of CONFIG_VARIABLES as readonly ConfigVariable[]) {
    if (variable.group !== group) {
      group = variable.group;
      lines.push('', `## ${group}`);
    }
    lines.push('', `# ${variable.meaning}.`, `# Default: ${variable.default}.`, `# ${variable.name}=${variable.sample ?? ''}`);
  }
  return lines.join('\n') + '\n';
}
