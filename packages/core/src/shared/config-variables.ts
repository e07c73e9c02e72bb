/**
 * The one configuration schema: every environment variable subshare reads, with its type,
 * default, range or allowed values, meaning, secret-ness and group, each written once here.
 * The loader (config.ts) parses exactly these (readVariables), the typed configuration takes its
 * types from them (ConfigValues), and `.env.example` and docs/configuration.md's table are
 * rendered from them. A new variable: add it here, place it in config.ts's `assembleConfig`, then
 * `npm run docs` (tests fail while either is stale).
 */
import { custom, decimal, email, emailList, flag, group, integer, oneOf, Rejected, text, url, type ConfigVariable, type ValuesOf } from './config-schema.js';

const KEY_SHAPE = '32 bytes, as 64 hex digits or base64';

/** `host:port` entries as node's Resolver#setServers takes them (`[::1]:53` for IPv6). */
function dnsServers(raw: string): string[] | Rejected {
  const servers = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = servers.some((entry) => !/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(entry));
  return bad || servers.length === 0 ? new Rejected('comma-separated host:port entries, e.g. 127.0.0.1:53') : servers;
}

/** Express `trust proxy`: true, false, a hop count, or an address list or name such as "loopback". */
function trustProxy(raw: string): boolean | number | string {
  if (raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

function key32(raw: string): Buffer | Rejected {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return key.length === 32 ? key : new Rejected(KEY_SHAPE);
}

const BUSINESS = 'Business details (footer, policy pages, e-mails)';

export const CONFIG_SCHEMA = {
  ...group('Database and local state', {
    DATABASE_URL: url({
      description: 'PostgreSQL connection string; setting it switches to production mode',
      protocols: ['postgres:', 'postgresql:'],
      whenUnset: 'unset: demo mode, an embedded PostgreSQL under DATA_DIR',
      example: 'postgres://shop:secret@db.internal:5432/subshare',
      secret: true,
    }),
    DATABASE_STATEMENT_TIMEOUT_MS: integer({
      description: 'serve/start/worker: PostgreSQL cancels a statement after this many ms; past it plus 1 s the call answers 503',
      default: 5_000,
      min: 100,
      max: 600_000,
      noun: 'a whole number of milliseconds',
    }),
    DATABASE_ACQUIRE_TIMEOUT_MS: integer({
      description:
        'serve/start/worker: a call waiting for a pool connection answers 503 once no connection has come free for this many ms, and opening one gives up after it; while connections keep coming free it waits its turn, up to 20 s',
      default: 3_000,
      min: 100,
      max: 60_000,
      noun: 'a whole number of milliseconds',
    }),
    DATABASE_POOL_MAX: integer({
      description: 'serve/start/worker: connections of the request pool per process; each process also holds up to 4 for jobs and 1 for events',
      default: 10,
      min: 1,
      max: 100,
    }),
    DATA_DIR: text({ description: 'local state: embedded database, generated demo secrets', default: '.data' }),
  }),
  ...group('HTTP', {
    PORT: integer({ description: 'HTTP listen port', default: 3000, min: 1, max: 65535, noun: 'a port number' }),
    HOST: text({ description: 'HTTP listen address', default: '127.0.0.1' }),
    PUBLIC_URL: url({
      description:
        'external base URL, used in e-mails and provider return URLs; unset, a command (send-email, expire-due, a separate worker) takes the one the shop serving the same DATA_DIR recorded there',
      protocols: ['http:', 'https:'],
      base: true,
      whenUnset: 'http://127.0.0.1:$PORT',
      example: 'https://shop.example.com',
    }),
    TRUST_PROXY: custom({
      description: 'Express `trust proxy`: X-Forwarded-For is believed only when set',
      accepts: 'true, false, a hop count, or addresses (as Express reads `trust proxy`)',
      fallback: false as boolean | number | string,
      parse: trustProxy,
      whenUnset: 'unset: not trusted',
    }),
    COUNTRY_HEADER: text({
      description: "a header set by your CDN with the visitor's country, e.g. cf-ipcountry",
      whenUnset: 'unset: Accept-Language decides',
    }),
    LOG_LEVEL: oneOf({ description: 'pino log level', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
    METRICS_TOKEN: text({
      description: 'turns on GET /metrics (Prometheus text); a scrape must send Authorization: Bearer <token>',
      minLength: 16,
      whenUnset: 'unset: /metrics answers 404',
      secret: true,
    }),
  }),
  ...group('Mail', {
    SMTP_URL: url({
      description: 'smtp:// or smtps://user:pass@host:port for outgoing mail',
      protocols: ['smtp:', 'smtps:'],
      whenUnset:
        'unset: mail stays in the outbox (demo mode also prints every e-mail on the console, which counts as delivered); with Stripe keys, no renewal reminder is delivered, so no automatic renewal is charged (start and dashboard warn)',
      example: 'smtp://user:pass@smtp.example.com:587',
      secret: true,
    }),
    MAIL_FROM: text({ description: 'sender address', default: 'subshare <no-reply@localhost>' }),
  }),
  ...group('Payments', {
    STRIPE_SECRET_KEY: text({ description: 'card payments (method 1): Stripe secret key', whenUnset: 'unset: the demo provider', secret: true }),
    STRIPE_WEBHOOK_SECRET: text({ description: 'Stripe webhook signing secret', together: 'STRIPE_SECRET_KEY', whenUnset: 'unset', secret: true }),
    STRIPE_API_BASE: url({ description: 'Stripe API base URL (tests and staging)', protocols: ['http:', 'https:'], base: true, whenUnset: "Stripe's" }),
    COINPAL_MERCHANT_NO: text({ description: 'crypto payments (method 2): CoinPal merchant number', whenUnset: 'unset: the demo provider' }),
    COINPAL_SECRET_KEY: text({ description: 'CoinPal secret key', together: 'COINPAL_MERCHANT_NO', whenUnset: 'unset', secret: true }),
    COINPAL_API_BASE: url({ description: 'CoinPal API base URL (tests and staging)', protocols: ['http:', 'https:'], base: true, whenUnset: "CoinPal's" }),
    PAYSSION_API_KEY: text({ description: 'Korean methods (3 to 6): Payssion API key', whenUnset: 'unset: the demo provider', secret: true }),
    PAYSSION_SECRET_KEY: text({ description: 'Payssion secret key', together: 'PAYSSION_API_KEY', whenUnset: 'unset', secret: true }),
    PAYSSION_API_BASE: url({ description: 'Payssion API base URL (tests and staging)', protocols: ['http:', 'https:'], base: true, whenUnset: "Payssion's" }),
    ALLOW_DEMO_PAYMENTS: flag({ description: 'production only: serve methods without a provider through the demo provider', default: false }),
  }),
  ...group('Refunds', {
    REFUND_FEE_PERCENT: decimal({
      description: 'the refund fee: this percentage of the amount paid, plus the fixed fee of the currency',
      default: 5,
      min: 0,
      max: 100,
      digits: 2,
      noun: 'a percentage',
    }),
    REFUND_FEE_EUR: decimal({
      description: 'the fixed part of the refund fee for EUR orders, in euros (e.g. 0.50)',
      default: 0,
      min: 0,
      max: 1000,
      digits: 2,
      noun: 'an amount in euros',
    }),
    REFUND_FEE_KRW: integer({
      description: 'the fixed part of the refund fee for KRW orders, in whole won',
      default: 0,
      min: 0,
      max: 1_000_000,
      noun: 'a whole number of won',
    }),
    REFUND_WINDOW_HOURS: integer({
      description: 'refunds within this many hours of payment follow the policy; later ones need staff to override (audited)',
      default: 24,
      min: 1,
      max: 24 * 365,
      noun: 'a whole number of hours',
    }),
  }),
  ...group('Automatic renewal', {
    RENEWAL_NOTICE_HOURS: integer({
      description:
        'an automatic renewal charge is made only this many hours after its reminder was sent; a reminder sent later than that before the end date moves the charge, the slot held meanwhile',
      default: 48,
      min: 1,
      max: 336,
      noun: 'a whole number of hours',
    }),
  }),
  ...group('Codes and credit', {
    REFERRAL_WELCOME_PERCENT: decimal({
      description: "a buyer who signed up by a friend's invitation link gets this percentage off their first order",
      default: 10,
      min: 0,
      max: 90,
      digits: 2,
      noun: 'a percentage',
    }),
    REFERRAL_REWARD_PERCENT: decimal({
      description: 'the inviter earns this percentage of what the invited buyer paid, as credit in that currency, once the payment is past the refund window',
      default: 10,
      min: 0,
      max: 100,
      digits: 2,
      noun: 'a percentage',
    }),
    REFERRAL_MONTHLY_CAP: integer({
      description: 'an inviter is rewarded for at most this many invited buyers a calendar month (UTC); the others are refused, for staff to see',
      default: 10,
      min: 0,
      max: 1000,
      noun: 'a whole number of buyers',
    }),
  }),
  ...group('Social login', {
    GOOGLE_CLIENT_ID: text({ description: 'Google sign-in client id', whenUnset: 'unset: the button is hidden' }),
    GOOGLE_API_BASE: url({ description: 'Google API base URL (tests and staging)', protocols: ['http:', 'https:'], base: true, whenUnset: "Google's" }),
    NAVER_CLIENT_ID: text({ description: 'Naver login client id', whenUnset: 'unset: the button is hidden' }),
    NAVER_CLIENT_SECRET: text({ description: 'Naver login client secret', together: 'NAVER_CLIENT_ID', whenUnset: 'unset', secret: true }),
    NAVER_API_BASE: url({ description: 'Naver API base URL (tests and staging)', protocols: ['http:', 'https:'], base: true, whenUnset: "Naver's" }),
    KAKAO_REST_API_KEY: text({ description: 'Kakao login REST API key', whenUnset: 'unset: the button is hidden', secret: true }),
    KAKAO_API_BASE: url({ description: 'Kakao API base URL (tests and staging)', protocols: ['http:', 'https:'], base: true, whenUnset: "Kakao's" }),
  }),
  ...group('Secrets and the first admin', {
    ADMIN_EMAIL: email({
      description: 'the first admin, created at start if no admin exists',
      together: 'ADMIN_PASSWORD',
      whenUnset: 'demo: admin@subshare.localhost, generated and printed once',
    }),
    ADMIN_PASSWORD: text({
      description: "the first admin's password",
      minLength: 8,
      maxLength: 18,
      whenUnset: 'demo: generated and printed once',
      secret: true,
    }),
    CREDENTIALS_KEY: custom({
      description: 'encrypts stored account and mailbox passwords; keep it backed up',
      accepts: KEY_SHAPE,
      // Never used: production refuses to start without it, demo mode generates it.
      fallback: Buffer.alloc(32),
      parse: key32,
      requiredInProduction: true,
      whenUnset: 'demo: generated under DATA_DIR',
      secret: true,
    }),
    TOKEN_SECRET: text({
      description: 'signs login tokens, the links of renewal e-mails, demo checkouts and the OAuth state of social login',
      minLength: 32,
      requiredInProduction: true,
      whenUnset: 'demo: generated under DATA_DIR',
      secret: true,
    }),
  }),
  ...group('Mailboxes', {
    MAILBOX_DOMAIN: text({ description: 'domain for new mailboxes', default: 'mail.localhost' }),
    MAILBOX_IMAP_URL: url({
      description: 'the IMAP server that holds the mailboxes (imap:// or imaps://host:port)',
      protocols: ['imap:', 'imaps:'],
      hostRequired: 'imaps://mail.example.com:993',
      whenUnset: 'unset: mailboxes are not read',
      example: 'imaps://mail.example.com:993',
    }),
    MAILBOX_IMAP_IDLE: flag({
      description:
        'keep IMAP IDLE open on polled mailboxes (one connection per mailbox in the whole cluster, held by the process that owns it), so links and codes are known the moment they land',
      default: true,
    }),
    MAILBOX_IMAP_TIMEOUT_SECONDS: integer({
      description:
        'budget of one mailbox read (connect, log in, search, fetch); past it the call answers 503 (a process waiting for the owner of the mailbox to read it: this plus 1 s)',
      default: 10,
      min: 1,
      max: 60,
      noun: 'a whole number of seconds',
    }),
    MAIL_DNS_SERVERS: custom({
      description: "the DNS servers asked for the DKIM keys and DMARC records that prove a platform mail is the platform's (docs/mailboxes.md)",
      accepts: 'comma-separated host:port entries, e.g. 127.0.0.1:53',
      fallback: [] as string[],
      parse: dnsServers,
      whenUnset: "unset: the system's DNS servers",
      example: '1.1.1.1:53,8.8.8.8:53',
    }),
    MAIL_AUTHSERV_ID: text({
      description:
        "trust instead the Authentication-Results header of this authserv-id (the shop's own mail server, which must remove incoming headers with that id) and ignore any other",
      whenUnset: 'unset: the shop checks DKIM and DMARC itself',
      example: 'mx.example.com',
    }),
    STAFF_ALERT_EMAILS: emailList({
      description:
        'staff told when a platform account turns broken (one e-mail per broken account: the mail that broke it, its buyers and where they went) and when the payment provider fails a renewal charge for a reason other than the card (one e-mail per charge: its message and request id)',
      whenUnset: 'unset: no staff alert e-mails (the admin area still lists broken accounts and failed renewals)',
      example: 'ops@example.com,owner@example.com',
    }),
  }),
  ...group('Account health', {
    ACCOUNT_BREAKS_PER_HOUR: integer({
      description:
        'the circuit breaker: at most this many of one platform\'s accounts turn broken by themselves (platform mail, buyers\' reports) within an hour; a further one is held (marked attention, its buyers stay), staff get one "platform-wide incident" e-mail and decide',
      default: 2,
      min: 1,
      max: 1000,
    }),
    ACCOUNT_REPORTS_TO_BREAK: integer({
      description: 'how many different buyers of one account must report "it doesn\'t work" within an hour to break it (one buyer alone never can)',
      default: 2,
      min: 2,
      max: 100,
    }),
  }),
  ...group(BUSINESS, {
    BUSINESS_NAME: text({ description: 'company name', default: 'Subshare Demo Ltd' }),
    BUSINESS_REG_NO: text({ description: 'business registration number', default: '00000000' }),
    BUSINESS_MAIL_ORDER_NO: text({ description: 'mail-order sales registration number', default: '2026-Demo-0000' }),
    BUSINESS_ADDRESS: text({ description: 'postal address', default: '1 Demo Street, London, United Kingdom' }),
    BUSINESS_REPRESENTATIVE: text({ description: 'representative', default: 'Alex Demo' }),
    SUPPORT_PHONE: text({ description: 'support phone number', default: '+44 20 0000 0000' }),
    SUPPORT_EMAIL: email({ description: 'support e-mail address', default: 'support@subshare.localhost' }),
  }),
};

export type ConfigVariableName = keyof typeof CONFIG_SCHEMA;
/** Each variable's parsed value, typed from its schema entry. */
export type ConfigValues = ValuesOf<typeof CONFIG_SCHEMA>;

/** The schema as a list, in order, each entry with its name. */
export const CONFIG_VARIABLES: ReadonlyArray<ConfigVariable & { name: ConfigVariableName }> = Object.entries(CONFIG_SCHEMA).map(([name, spec]) => ({
  ...(spec as ConfigVariable),
  name: name as ConfigVariableName,
}));

/** The meaning as docs and `.env.example` say it, with what the schema adds to the description. */
export function meaningOf(variable: ConfigVariable): string {
  return [
    variable.requiredInProduction ? 'required in production: ' : '',
    variable.description,
    variable.together ? ` (set together with ${variable.together})` : '',
  ].join('');
}

/** The text of `.env.example`: every variable, commented out, with its meaning, values and default. */
export function renderEnvExample(): string {
  const lines = [
    '# subshare configuration. Copy to .env (real environment variables win) and uncomment what you set.',
    '# Without DATABASE_URL subshare runs in demo mode and every variable has a safe default; with it,',
    '# production mode, CREDENTIALS_KEY and TOKEN_SECRET are required and every problem stops start-up.',
    '# Rendered from the schema in packages/core/src/shared/config-variables.ts (npm run docs).',
  ];
  let heading = '';
  for (const variable of CONFIG_VARIABLES) {
    if (variable.group !== heading) {
      heading = variable.group;
      lines.push('', `## ${heading}`);
    }
    lines.push(
      '',
      `# ${meaningOf(variable)}.`,
      ...(variable.accepts ? [`# Accepts: ${variable.accepts}.`] : []),
      `# Default: ${variable.defaultText}.`,
      `# ${variable.name}=${variable.sample}`,
    );
  }
  return lines.join('\n') + '\n';
}
