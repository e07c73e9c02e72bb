/**
 * Configuration is read from the environment once, at start, and validated here; everything
 * else receives the typed AppConfig. Each variable (name, type, default, range, meaning) is
 * declared once, in the schema of config-variables.ts: `readVariables` parses and checks them
 * all, and `assembleConfig` places the values in AppConfig, whose type is inferred from it (so from
 * the schema). Here remain the rules between variables. Demo mode (no DATABASE_URL) has a safe
 * default for every variable and generates missing secrets once under DATA_DIR. Every problem
 * found is reported at once, one line each, so an operator fixes them in one go.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { problemLine, rawValue, readVariables, type Env } from './config-schema.js';
import { CONFIG_SCHEMA, CONFIG_VARIABLES, type ConfigValues, type ConfigVariableName } from './config-variables.js';
import { ConfigError } from './errors.js';

export { CONFIG_SCHEMA, CONFIG_VARIABLES, meaningOf, renderEnvExample, type ConfigValues, type ConfigVariableName } from './config-variables.js';
export type { ConfigVariable } from './config-schema.js';

export type RunMode = 'demo' | 'production';
/**
 * The configuration the code reads: the shape `assembleConfig` gives, its leaves typed by the schema.
 * A property that may be undefined is optional, so a test may build a part without it.
 */
export type AppConfig = UnsetIsOptional<ReturnType<typeof assembleConfig>>;
export type BusinessDetails = AppConfig['business'];

type UnsetIsOptional<T> = T extends Buffer | readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T as undefined extends T[K] ? K : never]?: UnsetIsOptional<T[K]> } & {
        [K in keyof T as undefined extends T[K] ? never : K]: UnsetIsOptional<T[K]>;
      } extends infer O
      ? { [K in keyof O]: O[K] }
      : never
    : T;

/** Secrets that demo mode generates once and keeps in DATA_DIR/secrets.json. */
interface DemoSecrets {
  CREDENTIALS_KEY: string;
  TOKEN_SECRET: string;
  EMBEDDED_DB_PASSWORD: string;
}

function imapServer(imapUrl: string | undefined): { host: string; port: number; secure: boolean } | undefined {
  if (imapUrl === undefined) return undefined;
  const url = new URL(imapUrl);
  const secure = url.protocol === 'imaps:';
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : secure ? 993 : 143, secure };
}

/**
 * Where each parsed variable goes in the configuration the code reads; the type of AppConfig.
 * Exported for the test that checks it places every variable of the schema.
 */
export function assembleConfig(v: ConfigValues, mode: RunMode, embeddedDbPassword: string) {
  return {
    mode,
    dataDir: path.resolve(v.DATA_DIR),
    /** Undefined means: run the embedded PostgreSQL under dataDir. */
    databaseUrl: v.DATABASE_URL,
    /**
     * Bounds of the pool that serves requests and jobs in `serve`, `start` and `worker` (not of
     * migrations, backup or restore, nor of pg-boss's own pool): see shared/database.ts.
     */
    database: { statementTimeoutMs: v.DATABASE_STATEMENT_TIMEOUT_MS, acquireTimeoutMs: v.DATABASE_ACQUIRE_TIMEOUT_MS, poolMax: v.DATABASE_POOL_MAX },
    port: v.PORT,
    host: v.HOST,
    publicUrl: v.PUBLIC_URL ?? `http://127.0.0.1:${v.PORT}`,
    logLevel: v.LOG_LEVEL,
    /** Express `trust proxy` setting: X-Forwarded-For is only believed when this is set. */
    trustProxy: v.TRUST_PROXY,
    /** A header set by a trusted CDN with the visitor's ISO country code, e.g. cf-ipcountry. */
    countryHeader: v.COUNTRY_HEADER?.toLowerCase(),
    /** GET /metrics is served only with a token, which scrapes send as a bearer token. */
    metrics: { token: v.METRICS_TOKEN },
    mail: { smtpUrl: v.SMTP_URL, from: v.MAIL_FROM },
    stripe: { secretKey: v.STRIPE_SECRET_KEY, webhookSecret: v.STRIPE_WEBHOOK_SECRET, apiBase: v.STRIPE_API_BASE },
    coinpal: { merchantNo: v.COINPAL_MERCHANT_NO, secretKey: v.COINPAL_SECRET_KEY, apiBase: v.COINPAL_API_BASE },
    payssion: { apiKey: v.PAYSSION_API_KEY, secretKey: v.PAYSSION_SECRET_KEY, apiBase: v.PAYSSION_API_BASE },
    /** Production refuses to serve an unconfigured payment method with the demo provider unless this is set. */
    allowDemoPayments: mode === 'demo' || v.ALLOW_DEMO_PAYMENTS,
    /**
     * The refund policy (spec section 1: refund within 24 hours, less a refund fee): the fee is
     * `feePercent` of the amount paid plus a fixed part per currency (minor units: cents, whole
     * won); past `windowHours` after payment a refund needs staff's explicit override.
     */
    refunds: {
      feePercent: v.REFUND_FEE_PERCENT,
      feeFixedMinor: { EUR: Math.round(v.REFUND_FEE_EUR * 100), KRW: v.REFUND_FEE_KRW },
      windowHours: v.REFUND_WINDOW_HOURS,
    },
    /** Automatic renewal: the hours between a sent reminder and its charge, at least. */
    renewals: { noticeHours: v.RENEWAL_NOTICE_HOURS },
    /** Referral credit (issue 37): the invitee's first-order discount, the inviter's reward and its monthly cap. */
    referrals: { welcomePercent: v.REFERRAL_WELCOME_PERCENT, rewardPercent: v.REFERRAL_REWARD_PERCENT, monthlyCap: v.REFERRAL_MONTHLY_CAP },
    google: { clientId: v.GOOGLE_CLIENT_ID, apiBase: v.GOOGLE_API_BASE },
    naver: { clientId: v.NAVER_CLIENT_ID, clientSecret: v.NAVER_CLIENT_SECRET, apiBase: v.NAVER_API_BASE },
    kakao: { restApiKey: v.KAKAO_REST_API_KEY, apiBase: v.KAKAO_API_BASE },
    admin: { email: v.ADMIN_EMAIL, password: v.ADMIN_PASSWORD },
    /** 32-byte key for AES-256-GCM encryption of stored platform account and mailbox passwords. */
    credentialsKey: v.CREDENTIALS_KEY,
    /** HMAC key for signing login tokens. */
    tokenSecret: Buffer.from(v.TOKEN_SECRET ?? '', 'utf8'),
    mailbox: {
      domain: v.MAILBOX_DOMAIN,
      imapUrl: v.MAILBOX_IMAP_URL,
      /** The IMAP server from MAILBOX_IMAP_URL; undefined: mailboxes are not read. */
      imap: imapServer(v.MAILBOX_IMAP_URL),
      /** Keep IDLE connections to mailboxes being polled, so new mail is known the moment it lands. */
      imapIdle: v.MAILBOX_IMAP_IDLE,
      /** Budget of one mailbox read (connect, log in, search, fetch), in ms. */
      imapTimeoutMs: v.MAILBOX_IMAP_TIMEOUT_SECONDS * 1000,
      /** Who is told, once per broken account, that an account broke, and once per renewal charge that the provider failed it. */
      staffAlertEmails: v.STAFF_ALERT_EMAILS,
      /** Where DKIM keys and DMARC records are asked (host:port); empty: the system's. */
      dnsServers: v.MAIL_DNS_SERVERS,
      /** Trust this mail server's Authentication-Results instead of checking DKIM here. */
      authservId: v.MAIL_AUTHSERV_ID,
    },
    accountHealth: {
      /** The circuit breaker's allowance of automatic breaks per platform and hour. */
      breaksPerHour: v.ACCOUNT_BREAKS_PER_HOUR,
      /** Different buyers whose reports within an hour break an account. */
      reportsToBreak: v.ACCOUNT_REPORTS_TO_BREAK,
    },
    business: {
      name: v.BUSINESS_NAME,
      registrationNumber: v.BUSINESS_REG_NO,
      mailOrderNumber: v.BUSINESS_MAIL_ORDER_NO,
      address: v.BUSINESS_ADDRESS,
      representative: v.BUSINESS_REPRESENTATIVE,
      supportPhone: v.SUPPORT_PHONE,
      supportEmail: v.SUPPORT_EMAIL,
    },
    /** Only for the embedded database: the password of its superuser. */
    embeddedDbPassword,
  };
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
  const { values, problems } = readVariables(CONFIG_SCHEMA, env);
  const isSet = (name: ConfigVariableName) => rawValue(env, name) !== undefined;
  const problem = (name: ConfigVariableName, why: string) => problems.push(problemLine(name, CONFIG_SCHEMA[name], why));
  // A malformed DATABASE_URL still means production was meant: judge the rest by that.
  const mode: RunMode = isSet('DATABASE_URL') ? 'production' : 'demo';

  // Both or neither: a key without its secret is a mistake, not a half-configured provider.
  for (const variable of CONFIG_VARIABLES) {
    const other = variable.together as ConfigVariableName | undefined;
    if (other === undefined || isSet(variable.name) === isSet(other)) continue;
    if (isSet(other)) problem(variable.name, `must be set together with ${other}`);
    else problem(other, `must be set together with ${variable.name}`);
  }

  // Production never sells through the demo provider by accident: at least one real provider,
  // or an explicit ALLOW_DEMO_PAYMENTS. Methods without a provider are then simply not offered.
  if (mode === 'production' && !values.ALLOW_DEMO_PAYMENTS) {
    if (!(['STRIPE_SECRET_KEY', 'COINPAL_MERCHANT_NO', 'PAYSSION_API_KEY'] as const).some(isSet)) {
      problem(
        'STRIPE_SECRET_KEY',
        'or COINPAL_MERCHANT_NO or PAYSSION_API_KEY is required when DATABASE_URL is set (or set ALLOW_DEMO_PAYMENTS=true to sell through the demo provider)',
      );
    }
  }

  // The secrets: from the environment, else (demo) generated once under DATA_DIR, else (production) required.
  const missing = CONFIG_VARIABLES.filter((variable) => variable.requiredInProduction && !isSet(variable.name)).map((variable) => variable.name);
  let embeddedDbPassword = '';
  if (mode === 'production') {
    for (const name of missing) problem(name, 'is required when DATABASE_URL is set');
  } else {
    const demo = readDemoSecrets(path.resolve(values.DATA_DIR), problems.length === 0);
    if (typeof demo === 'string') problems.push(demo);
    else {
      // Read as if set: a hand-edited secrets.json is checked like the environment.
      const generated = readVariables(CONFIG_SCHEMA, Object.fromEntries(missing.map((name) => [name, demo[name as keyof DemoSecrets]])));
      for (const name of missing) (values as Record<string, unknown>)[name] = generated.values[name];
      problems.push(...generated.problems);
      embeddedDbPassword = demo.EMBEDDED_DB_PASSWORD;
    }
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return assembleConfig(values, mode, embeddedDbPassword);
}
