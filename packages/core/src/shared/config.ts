/**
 * Configuration is read from the environment once, at start, and validated here; everything
 * else receives the typed AppConfig. Demo mode (no DATABASE_URL) has a safe default for every
 * variable and generates missing secrets once under DATA_DIR. Every problem found is reported
 * at once, one line each, so an operator fixes them in one go instead of one start per mistake.
 * The variables themselves (names, meanings, defaults) are described once, in config-variables.ts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { configVariable, type ConfigVariableName } from './config-variables.js';
import { ConfigError } from './errors.js';

export { CONFIG_VARIABLES, renderEnvExample, type ConfigVariable, type ConfigVariableName } from './config-variables.js';

export type RunMode = 'demo' | 'production';
export interface BusinessDetails {
  name: string;
  registrationNumber: string;
  mailOrderNumber: string;
  address: string;
  representative: string;
  supportPhone: string;
  supportEmail: string;
}

export interface AppConfig {
  mode: RunMode;
  dataDir: string;
  /** Undefined means: run the embedded PostgreSQL under dataDir. */
  databaseUrl?: string;
  /**
   * Bounds of the pool that serves requests and jobs in `serve`, `start` and `worker` (not of
   * migrations, backup or restore, nor of pg-boss's own pool): see shared/database.ts.
   */
  database: { statementTimeoutMs: number; acquireTimeoutMs: number; poolMax: number };
  port: number;
  host: string;
  publicUrl: string;
  logLevel: string;
  /** Express `trust proxy` setting: X-Forwarded-For is only believed when this is set. */
  trustProxy: boolean | number | string;
  /** A header set by a trusted CDN with the visitor's ISO country code, e.g. cf-ipcountry. */
  countryHeader?: string;
  /** GET /metrics is served only with a token, which scrapes send as a bearer token. */
  metrics: { token?: string };
  mail: { smtpUrl?: string; from: string };
  stripe: { secretKey?: string; webhookSecret?: string; apiBase?: string };
  coinpal: { merchantNo?: string; secretKey?: string; apiBase?: string };
  payssion: { apiKey?: string; secretKey?: string; apiBase?: string };
  /** Production refuses to serve an unconfigured payment method with the demo provider unless this is set. */
  allowDemoPayments: boolean;
  /**
   * The refund policy (spec section 1: refund within 24 hours, less a refund fee): the fee is
   * `feePercent` of the amount paid plus a fixed part per currency (minor units: cents, whole
   * won); past `windowHours` after payment a refund needs staff's explicit override.
   */
  refunds: { feePercent: number; feeFixedMinor: { EUR: number; KRW: number }; windowHours: number };
  /** Automatic renewal: the hours between a sent reminder and its charge, at least. */
  renewals: { noticeHours: number };
  google: { clientId?: string; apiBase?: string };
  naver: { clientId?: string; clientSecret?: string; apiBase?: string };
  kakao: { restApiKey?: string; apiBase?: string };
  admin: { email?: string; password?: string };
  /** 32-byte key for AES-256-GCM encryption of stored platform account and mailbox passwords. */
  credentialsKey: Buffer;
  /** HMAC key for signing login tokens. */
  tokenSecret: Buffer;
  mailbox: {
    domain: string;
    imapUrl?: string;
    /** The IMAP server from MAILBOX_IMAP_URL; undefined: mailboxes are not read. */
    imap?: { host: string; port: number; secure: boolean };
    /** Keep IDLE connections to mailboxes being polled, so new mail is known the moment it lands. */
    imapIdle: boolean;
    /** Budget of one mailbox read (connect, log in, search, fetch), in ms. */
    imapTimeoutMs: number;
    /** STAFF_ALERT_EMAILS: who is told, once per broken account, that an account broke, and once per renewal charge that the provider failed it. */
    staffAlertEmails: string[];
    /** MAIL_DNS_SERVERS: where DKIM keys and DMARC records are asked (host:port); empty: the system's. */
    dnsServers: string[];
    /** MAIL_AUTHSERV_ID: trust this mail server's Authentication-Results instead of checking DKIM here. */
    authservId?: string;
  };
  accountHealth: {
    /** ACCOUNT_BREAKS_PER_HOUR: the circuit breaker's allowance of automatic breaks per platform and hour. */
    breaksPerHour: number;
    /** ACCOUNT_REPORTS_TO_BREAK: different buyers whose reports within an hour break an account. */
    reportsToBreak: number;
  };
  business: BusinessDetails;
  /** Only for the embedded database: the password of its superuser. */
  embeddedDbPassword: string;
}

type Env = Record<string, string | undefined>;

/** Secrets that demo mode generates once and keeps in DATA_DIR/secrets.json. */
interface DemoSecrets {
  CREDENTIALS_KEY: string;
  TOKEN_SECRET: string;
  EMBEDDED_DB_PASSWORD: string;
}

const DEMO_BUSINESS: BusinessDetails = {
  name: 'Subshare Demo Ltd',
  registrationNumber: '00000000',
  mailOrderNumber: '2026-Demo-0000',
  address: '1 Demo Street, London, United Kingdom',
  representative: 'Alex Demo',
  supportPhone: '+44 20 0000 0000',
  supportEmail: 'support@subshare.localhost',
};

function blankToUndefined(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * Reads the variables of CONFIG_VARIABLES (no other name type-checks) and collects problems
 * instead of throwing at the first, each parser returning its fallback so that reading goes on.
 */
class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  raw(name: ConfigVariableName): string | undefined {
    return blankToUndefined(this.env[name]);
  }

  /** Records one problem; a secret's value is never echoed, only the shape that was expected. */
  problem(name: ConfigVariableName, why: string, value?: string): undefined {
    const shown = value === undefined || configVariable(name).secret ? '' : ` (got "${value}")`;
    this.problems.push(`Invalid configuration: ${name} ${why}${shown}`);
    return undefined;
  }

  text(name: ConfigVariableName, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  port(name: ConfigVariableName, fallback: number): number {
    return this.integer(name, fallback, 1, 65535, 'must be a port number from 1 to 65535');
  }

  integer(name: ConfigVariableName, fallback: number, min: number, max: number, why: string): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) return this.problem(name, why, raw) ?? fallback;
    return Number(raw);
  }

  url(name: ConfigVariableName, protocols: string[]): string | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return this.problem(name, `must be a URL (${protocols.join(', ')})`, raw.replace(/\/\/[^@/]*@/, '//***@'));
    }
    if (!protocols.includes(url.protocol)) return this.problem(name, `must start with ${protocols.join(' or ')}`, url.protocol);
    return raw;
  }

  /** An http(s) base URL without its trailing slash. */
  apiBase(name: ConfigVariableName): string | undefined {
    return this.url(name, ['http:', 'https:'])?.replace(/\/+$/, '');
  }

  email(name: ConfigVariableName): string | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    if (!/^[^\s@]+@[^\s@]+$/.test(raw)) return this.problem(name, 'must be an e-mail address', raw);
    return raw.toLowerCase();
  }

  /** Comma-separated e-mail addresses, lower case, each once; unset or empty: none. */
  emailList(name: ConfigVariableName): string[] {
    const raw = this.raw(name);
    if (raw === undefined) return [];
    const addresses = raw
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => part !== '');
    if (addresses.some((address) => !/^[^\s@]+@[^\s@]+$/.test(address))) return this.problem(name, 'must be e-mail addresses separated by commas', raw) ?? [];
    return [...new Set(addresses)];
  }

  /** A decimal number with at most `digits` decimals, from min to max. */
  decimal(name: ConfigVariableName, fallback: number, min: number, max: number, digits: number, why: string): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const shape = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
    if (!shape.test(raw) || Number(raw) < min || Number(raw) > max) return this.problem(name, why, raw) ?? fallback;
    return Number(raw);
  }

  boolean(name: ConfigVariableName, fallback: boolean): boolean {
    const raw = this.raw(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(raw)) return true;
    if (['0', 'false', 'no'].includes(raw)) return false;
    return this.problem(name, 'must be true or false', raw) ?? fallback;
  }

  /** Both or neither: a key without its secret is a mistake, not a half-configured provider. */
  pair(a: ConfigVariableName, b: ConfigVariableName): void {
    const hasA = this.raw(a) !== undefined;
    if (hasA !== (this.raw(b) !== undefined)) this.problem(hasA ? b : a, `must be set together with ${hasA ? a : b}`);
  }
}

function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw; // an address list or a name such as "loopback", as Express understands it
}

function parseImapServer(read: EnvReader, raw: string | undefined): { host: string; port: number; secure: boolean } | undefined {
  if (raw === undefined) return undefined;
  const url = new URL(raw);
  if (!url.hostname) return read.problem('MAILBOX_IMAP_URL', 'must name a host, e.g. imaps://mail.example.com:993', raw);
  const secure = url.protocol === 'imaps:';
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : secure ? 993 : 143, secure };
}

/** `host:port` entries as node's Resolver#setServers takes them (`[::1]:53` for IPv6). */
function parseDnsServers(read: EnvReader, raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const servers = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = servers.find((entry) => !/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(entry));
  if (bad !== undefined || servers.length === 0) {
    read.problem('MAIL_DNS_SERVERS', 'must be comma-separated host:port entries, e.g. 127.0.0.1:53', raw);
    return [];
  }
  return servers;
}

const KEY_SHAPE = 'must be 32 bytes, as 64 hex digits or base64';

function parseKey(read: EnvReader, raw: string | undefined): Buffer {
  const key = raw === undefined ? undefined : /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key?.length === 32) return key;
  if (raw !== undefined) read.problem('CREDENTIALS_KEY', KEY_SHAPE);
  return Buffer.alloc(32); // never used: a problem was recorded
}

function parseMetricsToken(read: EnvReader, raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.length < 16) return read.problem('METRICS_TOKEN', 'must be at least 16 characters long');
  return raw;
}

function parseSecret(read: EnvReader, raw: string | undefined): Buffer {
  if (raw !== undefined && raw.length < 32) read.problem('TOKEN_SECRET', 'must be at least 32 characters long');
  return Buffer.from(raw ?? '', 'utf8');
}

/**
 * Demo mode's generated secrets. They are written only when the rest of the configuration is
 * sound (`write`), so a start that fails on a typo leaves DATA_DIR as it was.
 */
function readDemoSecrets(dataDir: string, write: boolean): DemoSecrets | string {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<DemoSecrets> = {};
  if (existsSync(file)) {
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoSecrets>;
    } catch {
      return `Invalid configuration: ${file} is not valid JSON; remove it to generate new demo secrets`;
    }
  }
  const secrets: DemoSecrets = {
    CREDENTIALS_KEY: stored.CREDENTIALS_KEY ?? randomBytes(32).toString('base64'),
    TOKEN_SECRET: stored.TOKEN_SECRET ?? randomBytes(48).toString('base64url'),
    EMBEDDED_DB_PASSWORD: stored.EMBEDDED_DB_PASSWORD ?? randomBytes(24).toString('base64url'),
  };
  const missing = (Object.keys(secrets) as Array<keyof DemoSecrets>).some((key) => stored[key] === undefined);
  if (missing && write) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return secrets;
}

/** Reads an optional `.env` file in the working directory; real environment variables win. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

/** The configuration, or a ConfigError whose message is every problem found, one line each. */
export function loadConfig(env: Env = process.env): AppConfig {
  const read = new EnvReader(env);
  const databaseUrl = read.url('DATABASE_URL', ['postgres:', 'postgresql:']);
  // A malformed DATABASE_URL still means production was meant: judge the rest by that.
  const mode: RunMode = read.raw('DATABASE_URL') ? 'production' : 'demo';
  const dataDir = path.resolve(read.text('DATA_DIR', '.data'));
  const port = read.port('PORT', 3000);
  const publicUrl = (read.url('PUBLIC_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '');

  read.pair('STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET');
  read.pair('COINPAL_MERCHANT_NO', 'COINPAL_SECRET_KEY');
  read.pair('PAYSSION_API_KEY', 'PAYSSION_SECRET_KEY');
  read.pair('NAVER_CLIENT_ID', 'NAVER_CLIENT_SECRET');
  read.pair('ADMIN_EMAIL', 'ADMIN_PASSWORD');

  const adminPassword = read.raw('ADMIN_PASSWORD');
  if (adminPassword !== undefined && (adminPassword.length < 8 || adminPassword.length > 18)) {
    read.problem('ADMIN_PASSWORD', 'must be 8 to 18 characters long');
  }
  const imapUrl = read.url('MAILBOX_IMAP_URL', ['imap:', 'imaps:']);
  const allowDemoPayments = read.boolean('ALLOW_DEMO_PAYMENTS', false);

  // Production never sells through the demo provider by accident: at least one real provider,
  // or an explicit ALLOW_DEMO_PAYMENTS. Methods without a provider are then simply not offered.
  if (mode === 'production' && !allowDemoPayments) {
    const anyProvider = (['STRIPE_SECRET_KEY', 'COINPAL_MERCHANT_NO', 'PAYSSION_API_KEY'] as const).some((name) => read.raw(name));
    if (!anyProvider) {
      read.problem(
        'STRIPE_SECRET_KEY',
        'or COINPAL_MERCHANT_NO or PAYSSION_API_KEY is required when DATABASE_URL is set (or set ALLOW_DEMO_PAYMENTS=true to sell through the demo provider)',
      );
    }
  }

  const config: AppConfig = {
    mode,
    dataDir,
    databaseUrl,
    database: {
      statementTimeoutMs: read.integer('DATABASE_STATEMENT_TIMEOUT_MS', 5_000, 100, 600_000, 'must be a whole number of milliseconds from 100 to 600000'),
      acquireTimeoutMs: read.integer('DATABASE_ACQUIRE_TIMEOUT_MS', 3_000, 100, 60_000, 'must be a whole number of milliseconds from 100 to 60000'),
      poolMax: read.integer('DATABASE_POOL_MAX', 10, 1, 100, 'must be a whole number from 1 to 100'),
    },
    port,
    host: read.text('HOST', '127.0.0.1'),
    publicUrl,
    logLevel: read.text('LOG_LEVEL', 'info'),
    trustProxy: parseTrustProxy(read.raw('TRUST_PROXY')),
    countryHeader: read.raw('COUNTRY_HEADER')?.toLowerCase(),
    metrics: { token: parseMetricsToken(read, read.raw('METRICS_TOKEN')) },
    mail: { smtpUrl: read.url('SMTP_URL', ['smtp:', 'smtps:']), from: read.text('MAIL_FROM', 'subshare <no-reply@localhost>') },
    stripe: {
      secretKey: read.raw('STRIPE_SECRET_KEY'),
      webhookSecret: read.raw('STRIPE_WEBHOOK_SECRET'),
      apiBase: read.apiBase('STRIPE_API_BASE'),
    },
    coinpal: {
      merchantNo: read.raw('COINPAL_MERCHANT_NO'),
      secretKey: read.raw('COINPAL_SECRET_KEY'),
      apiBase: read.apiBase('COINPAL_API_BASE'),
    },
    payssion: {
      apiKey: read.raw('PAYSSION_API_KEY'),
      secretKey: read.raw('PAYSSION_SECRET_KEY'),
      apiBase: read.apiBase('PAYSSION_API_BASE'),
    },
    allowDemoPayments: mode === 'demo' || allowDemoPayments,
    refunds: {
      feePercent: read.decimal('REFUND_FEE_PERCENT', 5, 0, 100, 2, 'must be a percentage from 0 to 100 with at most 2 decimals'),
      feeFixedMinor: {
        EUR: Math.round(read.decimal('REFUND_FEE_EUR', 0, 0, 1000, 2, 'must be an amount in euros from 0 to 1000, e.g. 0.50') * 100),
        KRW: read.decimal('REFUND_FEE_KRW', 0, 0, 1_000_000, 0, 'must be a whole number of won from 0 to 1000000'),
      },
      windowHours: read.integer('REFUND_WINDOW_HOURS', 24, 1, 24 * 365, 'must be a whole number of hours from 1 to 8760'),
    },
    renewals: { noticeHours: read.integer('RENEWAL_NOTICE_HOURS', 48, 1, 336, 'must be a whole number of hours from 1 to 336') },
    google: { clientId: read.raw('GOOGLE_CLIENT_ID'), apiBase: read.apiBase('GOOGLE_API_BASE') },
    naver: {
      clientId: read.raw('NAVER_CLIENT_ID'),
      clientSecret: read.raw('NAVER_CLIENT_SECRET'),
      apiBase: read.apiBase('NAVER_API_BASE'),
    },
    kakao: { restApiKey: read.raw('KAKAO_REST_API_KEY'), apiBase: read.apiBase('KAKAO_API_BASE') },
    admin: { email: read.email('ADMIN_EMAIL'), password: adminPassword },
    credentialsKey: parseKey(read, read.raw('CREDENTIALS_KEY')),
    tokenSecret: parseSecret(read, read.raw('TOKEN_SECRET')),
    mailbox: {
      domain: read.text('MAILBOX_DOMAIN', 'mail.localhost'),
      imapUrl,
      imap: parseImapServer(read, imapUrl),
      imapIdle: read.boolean('MAILBOX_IMAP_IDLE', true),
      imapTimeoutMs: read.integer('MAILBOX_IMAP_TIMEOUT_SECONDS', 10, 1, 60, 'must be a whole number of seconds from 1 to 60') * 1000,
      staffAlertEmails: read.emailList('STAFF_ALERT_EMAILS'),
      dnsServers: parseDnsServers(read, read.raw('MAIL_DNS_SERVERS')),
      authservId: read.raw('MAIL_AUTHSERV_ID'),
    },
    accountHealth: {
      breaksPerHour: read.integer('ACCOUNT_BREAKS_PER_HOUR', 2, 1, 1000, 'must be a whole number from 1 to 1000'),
      reportsToBreak: read.integer('ACCOUNT_REPORTS_TO_BREAK', 2, 2, 100, 'must be a whole number from 2 to 100'),
    },
    business: {
      name: read.text('BUSINESS_NAME', DEMO_BUSINESS.name),
      registrationNumber: read.text('BUSINESS_REG_NO', DEMO_BUSINESS.registrationNumber),
      mailOrderNumber: read.text('BUSINESS_MAIL_ORDER_NO', DEMO_BUSINESS.mailOrderNumber),
      address: read.text('BUSINESS_ADDRESS', DEMO_BUSINESS.address),
      representative: read.text('BUSINESS_REPRESENTATIVE', DEMO_BUSINESS.representative),
      supportPhone: read.text('SUPPORT_PHONE', DEMO_BUSINESS.supportPhone),
      supportEmail: read.email('SUPPORT_EMAIL') ?? DEMO_BUSINESS.supportEmail,
    },
    embeddedDbPassword: '',
  };

  // The secrets: from the environment, else (demo) generated once under DATA_DIR, else (production) required.
  const missing = (['CREDENTIALS_KEY', 'TOKEN_SECRET'] as const).filter((name) => read.raw(name) === undefined);
  if (mode === 'production') {
    for (const name of missing) read.problem(name, 'is required when DATABASE_URL is set');
  } else {
    const demo = readDemoSecrets(dataDir, read.problems.length === 0);
    if (typeof demo === 'string') read.problems.push(demo);
    else {
      if (missing.includes('CREDENTIALS_KEY')) config.credentialsKey = parseKey(read, demo.CREDENTIALS_KEY);
      if (missing.includes('TOKEN_SECRET')) config.tokenSecret = parseSecret(read, demo.TOKEN_SECRET);
      config.embeddedDbPassword = demo.EMBEDDED_DB_PASSWORD;
    }
  }

  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}
