/**
 * Configuration is read from the environment once, at start, and validated here; everything
 * else receives the typed AppConfig. Demo mode (no DATABASE_URL) has a safe default for every
 * variable and generates missing secrets once under DATA_DIR. In production mode a missing or
 * malformed variable stops start-up with one line that names it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './errors.js';

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
  database: { statementTimeoutMs: number; acquireTimeoutMs: number };
  port: number;
  host: string;
  publicUrl: string;
  logLevel: string;
  /** Express `trust proxy` setting: X-Forwarded-For is only believed when this is set. */
  trustProxy: boolean | number | string;
  /** A header set by a trusted CDN with the visitor's ISO country code, e.g. cf-ipcountry. */
  countryHeader?: string;
  mail: { smtpUrl?: string; from: string };
  stripe: { secretKey?: string; webhookSecret?: string; apiBase?: string };
  coinpal: { merchantNo?: string; secretKey?: string; apiBase?: string };
  payssion: { apiKey?: string; secretKey?: string; apiBase?: string };
  /** Production refuses to serve an unconfigured payment method with the demo provider unless this is set. */
  allowDemoPayments: boolean;
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

function fail(name: string, why: string, value?: string): never {
  // Never echo secret values: only say what shape was expected.
  const shown = value === undefined || /SECRET|KEY|PASSWORD/.test(name) ? '' : ` (got "${value}")`;
  throw new ConfigError(`Invalid configuration: ${name} ${why}${shown}`);
}

function parsePort(env: Env, name: string, fallback: number): number {
  const raw = blankToUndefined(env[name]);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) fail(name, 'must be a port number from 1 to 65535', raw);
  return Number(raw);
}

function parseUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = blankToUndefined(env[name]);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(name, `must be a URL (${protocols.join(', ')})`, raw.replace(/\/\/[^@/]*@/, '//***@'));
  }
  if (!protocols.includes(url.protocol)) fail(name, `must start with ${protocols.join(' or ')}`, url.protocol);
  return raw;
}

function parseEmail(env: Env, name: string): string | undefined {
  const raw = blankToUndefined(env[name]);
  if (raw === undefined) return undefined;
  if (!/^[^\s@]+@[^\s@]+$/.test(raw)) fail(name, 'must be an e-mail address', raw);
  return raw.toLowerCase();
}

function parseBoolean(env: Env, name: string): boolean {
  const raw = blankToUndefined(env[name])?.toLowerCase();
  if (raw === undefined) return false;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  return fail(name, 'must be true or false', raw);
}

function parseTrustProxy(env: Env): boolean | number | string {
  const raw = blankToUndefined(env.TRUST_PROXY);
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw; // an address list or a name such as "loopback", as Express understands it
}

function parseImapServer(name: string, raw: string | undefined): { host: string; port: number; secure: boolean } | undefined {
  if (raw === undefined) return undefined;
  const url = new URL(raw);
  if (!url.hostname) fail(name, 'must name a host, e.g. imaps://mail.example.com:993', raw);
  const secure = url.protocol === 'imaps:';
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : secure ? 993 : 143, secure };
}

function parseSeconds(env: Env, name: string, fallback: number, max: number): number {
  const raw = blankToUndefined(env[name]);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) fail(name, `must be a whole number of seconds from 1 to ${max}`, raw);
  return Number(raw);
}

function parseMilliseconds(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = blankToUndefined(env[name]);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) fail(name, `must be a whole number of milliseconds from ${min} to ${max}`, raw);
  return Number(raw);
}

function parseKey(name: string, raw: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) fail(name, 'must be 32 bytes, as 64 hex digits or base64');
  return key;
}

function parseSecret(name: string, raw: string): Buffer {
  if (raw.length < 32) fail(name, 'must be at least 32 characters long');
  return Buffer.from(raw, 'utf8');
}

function readDemoSecrets(dataDir: string): DemoSecrets {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<DemoSecrets> = {};
  if (existsSync(file)) {
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoSecrets>;
    } catch {
      throw new ConfigError(`Invalid configuration: ${file} is not valid JSON; remove it to generate new demo secrets`);
    }
  }
  const secrets: DemoSecrets = {
    CREDENTIALS_KEY: stored.CREDENTIALS_KEY ?? randomBytes(32).toString('base64'),
    TOKEN_SECRET: stored.TOKEN_SECRET ?? randomBytes(48).toString('base64url'),
    EMBEDDED_DB_PASSWORD: stored.EMBEDDED_DB_PASSWORD ?? randomBytes(24).toString('base64url'),
  };
  const missing = (Object.keys(secrets) as Array<keyof DemoSecrets>).some((key) => stored[key] === undefined);
  if (missing) {
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

export function loadConfig(env: Env = process.env): AppConfig {
  const databaseUrl = parseUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const mode: RunMode = databaseUrl ? 'production' : 'demo';
  const dataDir = path.resolve(blankToUndefined(env.DATA_DIR) ?? '.data');
  const port = parsePort(env, 'PORT', 3000);
  const host = blankToUndefined(env.HOST) ?? '127.0.0.1';
  const publicUrl = (parseUrl(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '');

  const demo = mode === 'demo' ? readDemoSecrets(dataDir) : undefined;
  const secret = (name: keyof DemoSecrets): string => {
    const value = blankToUndefined(env[name]) ?? demo?.[name];
    if (value === undefined) fail(name, 'is required when DATABASE_URL is set');
    return value;
  };

  const pair = (a: string, b: string) => {
    if (Boolean(blankToUndefined(env[a])) !== Boolean(blankToUndefined(env[b]))) {
      fail(blankToUndefined(env[a]) ? b : a, `must be set together with ${blankToUndefined(env[a]) ? a : b}`);
    }
  };
  pair('STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET');
  pair('COINPAL_MERCHANT_NO', 'COINPAL_SECRET_KEY');
  pair('PAYSSION_API_KEY', 'PAYSSION_SECRET_KEY');
  pair('NAVER_CLIENT_ID', 'NAVER_CLIENT_SECRET');
  pair('ADMIN_EMAIL', 'ADMIN_PASSWORD');

  const adminPassword = blankToUndefined(env.ADMIN_PASSWORD);
  if (adminPassword !== undefined && (adminPassword.length < 8 || adminPassword.length > 18)) {
    fail('ADMIN_PASSWORD', 'must be 8 to 18 characters long');
  }
  const imapProtocols = ['imap:', 'imaps:'];
  const imapUrl = parseUrl(env, 'MAILBOX_IMAP_URL', imapProtocols);
  const api = (name: string) => parseUrl(env, name, ['http:', 'https:'])?.replace(/\/+$/, '');
  const smtpUrl = parseUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']);

  const config: AppConfig = {
    mode,
    dataDir,
    databaseUrl,
    database: {
      statementTimeoutMs: parseMilliseconds(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5_000, 100, 600_000),
      acquireTimeoutMs: parseMilliseconds(env, 'DATABASE_ACQUIRE_TIMEOUT_MS', 3_000, 100, 60_000),
    },
    port,
    host,
    publicUrl,
    logLevel: blankToUndefined(env.LOG_LEVEL) ?? 'info',
    trustProxy: parseTrustProxy(env),
    countryHeader: blankToUndefined(env.COUNTRY_HEADER)?.toLowerCase(),
    mail: { smtpUrl, from: blankToUndefined(env.MAIL_FROM) ?? 'subshare <no-reply@localhost>' },
    stripe: {
      secretKey: blankToUndefined(env.STRIPE_SECRET_KEY),
      webhookSecret: blankToUndefined(env.STRIPE_WEBHOOK_SECRET),
      apiBase: api('STRIPE_API_BASE'),
    },
    coinpal: {
      merchantNo: blankToUndefined(env.COINPAL_MERCHANT_NO),
      secretKey: blankToUndefined(env.COINPAL_SECRET_KEY),
      apiBase: api('COINPAL_API_BASE'),
    },
    payssion: {
      apiKey: blankToUndefined(env.PAYSSION_API_KEY),
      secretKey: blankToUndefined(env.PAYSSION_SECRET_KEY),
      apiBase: api('PAYSSION_API_BASE'),
    },
    allowDemoPayments: mode === 'demo' || parseBoolean(env, 'ALLOW_DEMO_PAYMENTS'),
    google: { clientId: blankToUndefined(env.GOOGLE_CLIENT_ID), apiBase: api('GOOGLE_API_BASE') },
    naver: {
      clientId: blankToUndefined(env.NAVER_CLIENT_ID),
      clientSecret: blankToUndefined(env.NAVER_CLIENT_SECRET),
      apiBase: api('NAVER_API_BASE'),
    },
    kakao: { restApiKey: blankToUndefined(env.KAKAO_REST_API_KEY), apiBase: api('KAKAO_API_BASE') },
    admin: { email: parseEmail(env, 'ADMIN_EMAIL'), password: adminPassword },
    credentialsKey: parseKey('CREDENTIALS_KEY', secret('CREDENTIALS_KEY')),
    tokenSecret: parseSecret('TOKEN_SECRET', secret('TOKEN_SECRET')),
    mailbox: {
      domain: blankToUndefined(env.MAILBOX_DOMAIN) ?? 'mail.localhost',
      imapUrl,
      imap: parseImapServer('MAILBOX_IMAP_URL', imapUrl),
      imapIdle: blankToUndefined(env.MAILBOX_IMAP_IDLE) === undefined ? true : parseBoolean(env, 'MAILBOX_IMAP_IDLE'),
      imapTimeoutMs: parseSeconds(env, 'MAILBOX_IMAP_TIMEOUT_SECONDS', 10, 60) * 1000,
    },
    business: {
      name: blankToUndefined(env.BUSINESS_NAME) ?? DEMO_BUSINESS.name,
      registrationNumber: blankToUndefined(env.BUSINESS_REG_NO) ?? DEMO_BUSINESS.registrationNumber,
      mailOrderNumber: blankToUndefined(env.BUSINESS_MAIL_ORDER_NO) ?? DEMO_BUSINESS.mailOrderNumber,
      address: blankToUndefined(env.BUSINESS_ADDRESS) ?? DEMO_BUSINESS.address,
      representative: blankToUndefined(env.BUSINESS_REPRESENTATIVE) ?? DEMO_BUSINESS.representative,
      supportPhone: blankToUndefined(env.SUPPORT_PHONE) ?? DEMO_BUSINESS.supportPhone,
      supportEmail: parseEmail(env, 'SUPPORT_EMAIL') ?? DEMO_BUSINESS.supportEmail,
    },
    embeddedDbPassword: demo?.EMBEDDED_DB_PASSWORD ?? '',
  };

  // Production never sells through the demo provider by accident: at least one real provider,
  // or an explicit ALLOW_DEMO_PAYMENTS. Methods without a provider are then simply not offered.
  if (mode === 'production' && !parseBoolean(env, 'ALLOW_DEMO_PAYMENTS')) {
    const anyProvider = ['STRIPE_SECRET_KEY', 'COINPAL_MERCHANT_NO', 'PAYSSION_API_KEY'].some((name) => blankToUndefined(env[name]));
    if (!anyProvider)
      fail(
        'STRIPE_SECRET_KEY',
        'or COINPAL_MERCHANT_NO or PAYSSION_API_KEY is required when DATABASE_URL is set (or set ALLOW_DEMO_PAYMENTS=true to sell through the demo provider)',
      );
  }

  return config;
}
