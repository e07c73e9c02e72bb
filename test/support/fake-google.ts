/**
 * A local stand-in for Google's key server (protocols.md section 4): a real HTTP server on
 * 127.0.0.1 that serves `GET /oauth2/v3/certs` (a JWKS with Google's Cache-Control header), and
 * mints ID tokens the way Google signs them (RS256, `kid` in the header) — or the way an attacker
 * would forge them (a stranger's key, `alg: none`, HS256 keyed with our public key).
 *
 *   const google = new FakeGoogle({ clientId: 'client-1.apps.googleusercontent.com' });
 *   const { baseUrl, stop } = await google.start();          // GOOGLE_API_BASE = baseUrl
 *   const token = await google.issueIdToken({ email: 'a@example.com' });
 *   const forged = await google.issueIdToken({}, { signWith: 'stranger' });
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { base64url, exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { LocalHttpServer } from './local-http-server.js';

export interface FakeGoogleOptions {
  /** The client id tokens are issued for (`aud`, `azp`). */
  clientId?: string;
}

export interface IssueIdTokenOptions {
  /** `own`: a key published in the JWKS (default). `stranger`: a key Google never published. */
  signWith?: 'own' | 'stranger';
  /** `RS256` (default); `none` (unsigned); `HS256` keyed with our public key's PEM (key confusion). */
  alg?: 'RS256' | 'HS256' | 'none';
  /** The header's `kid`; defaults to the published key's kid (a stranger copies it too). `null` leaves it out. */
  kid?: string | null;
}

/** Claims a token carries; any override set to `undefined` is left out of the token. */
export type GoogleClaims = Record<string, unknown>;

interface KeyPair {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  publicPem: string;
}

async function makeKeyPair(kid: string): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' }, publicPem: await exportSPKI(publicKey) };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export class FakeGoogle extends LocalHttpServer {
  readonly clientId: string;
  /** Requests received, by endpoint. */
  readonly requests = { certs: 0, other: 0 };
  /** Set to a non-200 status (e.g. 500) to play a key-server outage. */
  certsStatus = 200;
  /** Cache-Control max-age of the JWKS answer, in seconds (Google's is a few hours). */
  certsMaxAge = 21_600;

  private own?: KeyPair;
  private next?: KeyPair;
  private stranger?: KeyPair;

  constructor(options: FakeGoogleOptions = {}) {
    super('FakeGoogle');
    this.clientId = options.clientId ?? `${randomInt(1e11, 1e12)}-fake.apps.googleusercontent.com`;
  }

  /** The configuration that points the shop at this server. */
  get env(): Record<string, string> {
    return { GOOGLE_CLIENT_ID: this.clientId, GOOGLE_API_BASE: this.baseUrl };
  }

  /** Generates the keys before listening, so that the first JWKS request is answered at once. */
  override async start(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
    await this.keys();
    return super.start();
  }

  /** A fresh Google-style subject: 21 digits. */
  newSubject(): string {
    return `1${Array.from({ length: 20 }, () => randomInt(10)).join('')}`;
  }

  /** The claims of a good token for `clientId`, issued now and valid one hour. */
  defaultClaims(): GoogleClaims {
    const now = Math.floor(Date.now() / 1000);
    const sub = this.newSubject();
    return {
      iss: 'https://accounts.google.com',
      azp: this.clientId,
      aud: this.clientId,
      sub,
      email: `user${sub.slice(-6)}@gmail.com`,
      email_verified: true,
      name: 'Test User',
      picture: `https://lh3.googleusercontent.com/a/${sub}=s96-c`,
      given_name: 'Test',
      family_name: 'User',
      iat: now,
      nbf: now - 10,
      exp: now + 3600,
      jti: randomBytes(20).toString('hex'),
    };
  }

  /** Mints an ID token: the default claims with `overrides` applied. */
  async issueIdToken(overrides: GoogleClaims = {}, options: IssueIdTokenOptions = {}): Promise<string> {
    const { own, stranger } = await this.keys();
    const claims: GoogleClaims = { ...this.defaultClaims(), ...overrides };
    for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
    const kid = options.kid === undefined ? own.kid : options.kid;
    const header = { typ: 'JWT', ...(kid === null ? {} : { kid }) };
    const alg = options.alg ?? 'RS256';

    if (alg === 'none') {
      const encode = (value: object) => base64url.encode(JSON.stringify(value));
      return `${encode({ ...header, alg: 'none' })}.${encode(claims)}.`;
    }
    if (alg === 'HS256') {
      const encode = (value: object) => base64url.encode(JSON.stringify(value));
      const input = `${encode({ ...header, alg: 'HS256' })}.${encode(claims)}`;
      const signature = createHmac('sha256', own.publicPem).update(input).digest('base64url');
      return `${input}.${signature}`;
    }
    const key = options.signWith === 'stranger' ? stranger : own;
    return new SignJWT(claims).setProtectedHeader({ ...header, alg: 'RS256' }).sign(key.privateKey);
  }

  /** The published JWKS: the signing key and a second, not yet used one, as Google publishes two. */
  async jwks(): Promise<{ keys: JWK[] }> {
    const { own, next } = await this.keys();
    return { keys: [own.publicJwk, next.publicJwk] };
  }

  private async keys(): Promise<{ own: KeyPair; next: KeyPair; stranger: KeyPair }> {
    this.own ??= await makeKeyPair(randomBytes(20).toString('hex'));
    this.next ??= await makeKeyPair(randomBytes(20).toString('hex'));
    this.stranger ??= await makeKeyPair(randomBytes(20).toString('hex'));
    return { own: this.own, next: this.next, stranger: this.stranger };
  }

  protected override answerCrash(res: ServerResponse): void {
    json(res, 500, { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } });
  }

  protected override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, url } = await this.readRequest(req);
    if (url.pathname === '/oauth2/v3/certs' && (method === 'GET' || method === 'HEAD')) {
      this.requests.certs += 1;
      if (this.certsStatus !== 200) return json(res, this.certsStatus, { error: { code: this.certsStatus, message: 'Backend Error', status: 'UNAVAILABLE' } });
      return json(res, 200, await this.jwks(), {
        'cache-control': `public, max-age=${this.certsMaxAge}, must-revalidate, no-transform`,
        expires: new Date(Date.now() + this.certsMaxAge * 1000).toUTCString(),
      });
    }
    this.requests.other += 1;
    json(res, 404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
  }
}

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const google = new FakeGoogle(options);
  await google.start();
  return google;
}
