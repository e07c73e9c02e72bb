/**
 * A local stand-in for Naver Login (protocols.md section 5): a real HTTP server on 127.0.0.1 that
 * plays both nid.naver.com (`/oauth2.0/authorize`, `/oauth2.0/token`, `/oauth2.0/revoke`) and
 * openapi.naver.com (`/v1/nid/me`), so NAVER_API_BASE can point at it.
 *
 *   const naver = new FakeNaver();                         // naver.clientId, naver.clientSecret
 *   const { baseUrl, stop } = await naver.start();
 *   const code = naver.issueCode({ email: 'a@naver.com' }, 'state-1');   // as if the user logged in
 *   // exchange(code, 'state-1') → profile; a code works once, and only with its state
 *
 * The authorize page logs in at once as `loginAs(...)`'s profile (or a generated one) and redirects
 * to `redirect_uri?code=…&state=…`; after `denyNextLogin()` it redirects with `error=access_denied`.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer, type LocalRequest } from './local-http-server.js';

/** What `/v1/nid/me` answers in `response`; `id` is generated when left out. */
export interface NaverProfileData {
  id?: string;
  email?: string;
  nickname?: string;
  name?: string;
  profile_image?: string;
  [field: string]: unknown;
}

export interface FakeNaverOptions {
  clientId?: string;
  clientSecret?: string;
}

type Endpoint = 'authorize' | 'token' | 'revoke' | 'me';

interface IssuedCode {
  profile: NaverProfileData & { id: string };
  state: string;
}

interface ParsedRequest {
  method: string;
  path: string;
  contentType: string;
  params: URLSearchParams;
  authorization?: string;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json;charset=utf-8';
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function parse({ method, url, contentType, rawBody }: LocalRequest, authorization: string | undefined): ParsedRequest {
  // Naver takes the parameters from the query string (its examples) or a form body (GET/POST).
  const params = new URLSearchParams(url.search);
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    for (const [name, value] of new URLSearchParams(rawBody)) params.append(name, value);
  }
  return { method, path: url.pathname, contentType, params, authorization };
}

export class FakeNaver extends LocalHttpServer {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Requests received, by endpoint. */
  readonly requests: Record<Endpoint | 'other', number> = { authorize: 0, token: 0, revoke: 0, me: 0, other: 0 };
  /** The parameters of the last token request (for protocol assertions). */
  lastTokenRequest?: { method: string; contentType: string; params: Record<string, string> };
  /** Naver's example answers `expires_in` as the string "3600"; the spec table says integer. */
  expiresInAs: 'string' | 'number' = 'string';
  /** HTTP status of token error answers (not documented by Naver [?]: it answers 200 in practice). */
  tokenErrorStatus = 200;

  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, { profile: NaverProfileData & { id: string }; expiresAt: number }>();
  private loginProfile?: NaverProfileData;
  private denyNext = false;

  constructor(options: FakeNaverOptions = {}) {
    super('FakeNaver');
    this.clientId = options.clientId ?? `naver-client-${randomBytes(6).toString('hex')}`;
    this.clientSecret = options.clientSecret ?? randomBytes(8).toString('base64url');
  }

  /** The configuration that points the shop at this server. */
  get env(): Record<string, string> {
    return { NAVER_CLIENT_ID: this.clientId, NAVER_CLIENT_SECRET: this.clientSecret, NAVER_API_BASE: this.baseUrl };
  }

  /** A profile with Naver's usual fields, for the person `id`. */
  static profile(overrides: NaverProfileData = {}): NaverProfileData & { id: string } {
    const id = overrides.id ?? String(randomInt(10_000_000, 99_999_999));
    return {
      nickname: `user${id.slice(-4)}`,
      name: '네이버 사용자',
      email: `user${id}@naver.com`,
      profile_image: 'https://ssl.pstatic.net/static/pwe/address/img_profile.png',
      ...overrides,
      id,
    };
  }

  /**
   * A code as if this person had just logged in on the authorize page with `state`. Single use.
   * Fields left out get `FakeNaver.profile()`'s values; a field set to `undefined` is not shared.
   */
  issueCode(profile: NaverProfileData, state: string): string {
    const code = randomBytes(12).toString('base64url');
    this.codes.set(code, { profile: FakeNaver.profile(profile), state });
    return code;
  }

  /** The person the authorize page logs in next (default: a generated profile). */
  loginAs(profile: NaverProfileData): void {
    this.loginProfile = profile;
  }

  /** The next authorize request is cancelled by the user. */
  denyNextLogin(): void {
    this.denyNext = true;
  }

  /** Every access token handed out so far stops working (the profile API answers 401 / 024). */
  revokeAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** The next request to `endpoint` gets this answer instead (e.g. a 500), once. */
  failNext(endpoint: Endpoint, status: number, body: unknown = { error: 'server_error', error_description: 'Internal Server Error' }): void {
    this.queueFailure({ status, body }, endpoint);
  }

  protected override answerCrash(res: ServerResponse): void {
    send(res, 500, { error: 'server_error', error_description: 'fake failure' });
  }

  protected override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = parse(await this.readRequest(req), req.headers.authorization);
    const endpoint = ({ '/oauth2.0/authorize': 'authorize', '/oauth2.0/token': 'token', '/oauth2.0/revoke': 'revoke', '/v1/nid/me': 'me' } as const)[
      request.path
    ];
    if (!endpoint) {
      this.requests.other += 1;
      return send(res, 404, { resultcode: '404', message: 'Not Found' });
    }
    this.requests[endpoint] += 1;
    const override = this.takeFailure(endpoint);
    if (override) return send(res, override.status, override.body);
    return this[endpoint](request, res);
  }

  private authorize(request: ParsedRequest, res: ServerResponse): void {
    const { params } = request;
    const redirectUri = params.get('redirect_uri');
    const state = params.get('state');
    if (params.get('client_id') !== this.clientId) return send(res, 400, '<p>등록되지 않은 애플리케이션입니다 (unknown client_id).</p>');
    if (params.get('response_type') !== 'code' || !redirectUri || !state) return send(res, 400, '<p>잘못된 요청입니다 (invalid request).</p>');
    const target = new URL(redirectUri);
    if (this.denyNext) {
      this.denyNext = false;
      target.searchParams.set('state', state);
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'Canceled By User');
    } else {
      target.searchParams.set('code', this.issueCode(this.loginProfile ?? FakeNaver.profile(), state));
      target.searchParams.set('state', state);
    }
    res.writeHead(302, { location: target.toString() });
    res.end();
  }

  private token(request: ParsedRequest, res: ServerResponse): void {
    const { params } = request;
    this.lastTokenRequest = { method: request.method, contentType: request.contentType, params: Object.fromEntries(params) };
    const fail = (error: string, description: string) => send(res, this.tokenErrorStatus, { error, error_description: description });
    if (params.get('client_id') !== this.clientId || params.get('client_secret') !== this.clientSecret) {
      return fail('unauthorized_client', 'client authentication failed');
    }
    if (params.get('grant_type') !== 'authorization_code') return fail('unsupported_response_type', 'unsupported grant_type');
    const code = params.get('code') ?? '';
    const issued = this.codes.get(code);
    this.codes.delete(code); // a code is spent by any attempt that names it
    if (!issued) return fail('invalid_request', 'no valid data in session');
    if (params.get('state') !== issued.state) return fail('invalid_request', 'invalid state');
    const accessToken = randomBytes(24).toString('base64url');
    this.accessTokens.set(accessToken, { profile: issued.profile, expiresAt: Date.now() + 3600_000 });
    send(res, 200, {
      access_token: accessToken,
      refresh_token: randomBytes(24).toString('base64url'),
      token_type: 'bearer',
      expires_in: this.expiresInAs === 'string' ? '3600' : 3600,
    });
  }

  private revoke(request: ParsedRequest, res: ServerResponse): void {
    const { params } = request;
    if (request.method !== 'POST') return send(res, 400, { error: 'invalid_request', error_description: 'POST required' });
    if (params.get('client_id') !== this.clientId || params.get('client_secret') !== this.clientSecret) {
      return send(res, 401, { error: 'unauthorized_client', error_description: 'client authentication failed' });
    }
    const token = params.get('token');
    if (!token) return send(res, 400, { error: 'invalid_request', error_description: 'token is required' });
    this.accessTokens.delete(token);
    res.writeHead(200, { 'content-length': 0 });
    res.end();
  }

  private me(request: ParsedRequest, res: ServerResponse): void {
    const match = /^Bearer (\S+)$/i.exec(request.authorization ?? '');
    if (!match) return send(res, 401, { resultcode: '028', message: 'Authentication header not exists' });
    const entry = this.accessTokens.get(match[1]);
    if (!entry || entry.expiresAt < Date.now()) return send(res, 401, { resultcode: '024', message: 'Authentication failed' });
    send(res, 200, { resultcode: '00', message: 'success', response: entry.profile });
  }
}

export async function startFakeNaver(options: FakeNaverOptions = {}): Promise<FakeNaver> {
  const naver = new FakeNaver(options);
  await naver.start();
  return naver;
}
