/**
 * A local stand-in for Kakao Login's REST API (protocols.md section 6): a real HTTP server on
 * 127.0.0.1 that plays kauth.kakao.com (`/oauth/authorize`, `/oauth/token`) and kapi.kakao.com
 * (`/v2/user/me`), so KAKAO_API_BASE can point at it.
 *
 *   const kakao = new FakeKakao();                          // kakao.restApiKey
 *   const { baseUrl, stop } = await kakao.start();
 *   const code = kakao.issueCode({ email: 'a@kakao.com' }, 'http://127.0.0.1/cb');
 *   // exchange(code, 'http://127.0.0.1/cb') → profile; a code works once, and only with its redirect URI
 *
 * User ids are 64-bit: pass `id` as a bigint or a digit string to get a number beyond 2^53 on the wire.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer, type LocalRequest } from './local-http-server.js';

/** A Kakao user as the fake should describe them; everything is optional. */
export interface KakaoUserData {
  id?: number | bigint | string;
  email?: string | null;
  isEmailValid?: boolean;
  isEmailVerified?: boolean;
  nickname?: string | null;
  profileImageUrl?: string | null;
  isDefaultImage?: boolean;
}

export interface FakeKakaoOptions {
  restApiKey?: string;
  /** When set, the token endpoint requires this `client_secret` (the app's "Client Secret" switch). */
  clientSecret?: string;
}

type Endpoint = 'authorize' | 'token' | 'me';

interface IssuedCode {
  user: KakaoUserData;
  redirectUri: string;
}

interface ParsedRequest {
  method: string;
  path: string;
  contentType: string;
  query: URLSearchParams;
  form: URLSearchParams;
  authorization?: string;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/html;charset=utf-8' : 'application/json;charset=utf-8';
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function parse({ method, url, contentType, rawBody }: LocalRequest, authorization: string | undefined): ParsedRequest {
  const form = contentType.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(rawBody) : new URLSearchParams();
  return { method, path: url.pathname, contentType, query: url.searchParams, form, authorization };
}

export class FakeKakao extends LocalHttpServer {
  readonly restApiKey: string;
  readonly clientSecret?: string;
  /** Requests received, by endpoint. */
  readonly requests: Record<Endpoint | 'other', number> = { authorize: 0, token: 0, me: 0, other: 0 };
  /** The last token request (for protocol assertions). */
  lastTokenRequest?: { method: string; contentType: string; params: Record<string, string> };

  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, KakaoUserData>();
  private loginUser?: KakaoUserData;

  constructor(options: FakeKakaoOptions = {}) {
    super('FakeKakao');
    this.restApiKey = options.restApiKey ?? randomBytes(16).toString('hex');
    this.clientSecret = options.clientSecret;
  }

  /** The configuration that points the shop at this server. */
  get env(): Record<string, string> {
    return { KAKAO_REST_API_KEY: this.restApiKey, KAKAO_API_BASE: this.baseUrl };
  }

  /** A code as if `user` had just consented on the authorize page for `redirectUri`. Single use. */
  issueCode(user: KakaoUserData, redirectUri: string): string {
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, { user: { ...user, id: user.id ?? randomInt(1_000_000_000, 9_999_999_999) }, redirectUri });
    return code;
  }

  /** The person the authorize page logs in next (default: a generated user). */
  loginAs(user: KakaoUserData): void {
    this.loginUser = user;
  }

  /** Every access token handed out so far stops working (user info answers 401 / -401). */
  revokeAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** The next request to `endpoint` gets this answer instead (e.g. a 500), once. */
  failNext(endpoint: Endpoint, status: number, body: unknown = { msg: 'internal error', code: -1 }): void {
    this.queueFailure({ status, body }, endpoint);
  }

  /** The `/v2/user/me` document for `user`, with `id` written as a bare (possibly > 2^53) number. */
  static userDocument(user: KakaoUserData): string {
    const id = String(user.id ?? 1);
    if (!/^\d+$/.test(id)) throw new Error(`a Kakao id is a number, not ${id}`);
    const email = user.email === undefined ? `kakao${id.slice(-6)}@kakao.com` : user.email;
    const nickname = user.nickname === undefined ? '카카오 사용자' : user.nickname;
    const image = user.profileImageUrl === undefined ? `https://k.kakaocdn.net/dn/${id}/img_640x640.jpg` : user.profileImageUrl;
    const placeholder = `__kakao_id_${randomBytes(8).toString('hex')}__`;
    const document = {
      id: placeholder,
      connected_at: '2026-01-01T00:00:00Z',
      properties: nickname === null ? {} : { nickname, profile_image: image ?? undefined, thumbnail_image: image ?? undefined },
      kakao_account: {
        profile_nickname_needs_agreement: nickname === null,
        profile_image_needs_agreement: image === null,
        profile: {
          nickname: nickname ?? undefined,
          thumbnail_image_url: image ?? undefined,
          profile_image_url: image ?? undefined,
          is_default_image: user.isDefaultImage ?? false,
        },
        email_needs_agreement: email === null,
        ...(email === null ? {} : { is_email_valid: user.isEmailValid ?? true, is_email_verified: user.isEmailVerified ?? true, email }),
      },
    };
    return JSON.stringify(document).replace(`"${placeholder}"`, id);
  }

  protected override answerCrash(res: ServerResponse): void {
    send(res, 500, { msg: 'fake failure', code: -1 });
  }

  protected override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = parse(await this.readRequest(req), req.headers.authorization);
    const endpoint = ({ '/oauth/authorize': 'authorize', '/oauth/token': 'token', '/v2/user/me': 'me' } as const)[request.path];
    if (!endpoint) {
      this.requests.other += 1;
      return send(res, 404, { msg: 'not found', code: -404 });
    }
    this.requests[endpoint] += 1;
    const override = this.takeFailure(endpoint);
    if (override) return send(res, override.status, override.body);
    return this[endpoint](request, res);
  }

  private authorize(request: ParsedRequest, res: ServerResponse): void {
    const { query } = request;
    const redirectUri = query.get('redirect_uri');
    if (query.get('client_id') !== this.restApiKey) return send(res, 401, '<p>KOE101: invalid client_id</p>');
    if (!redirectUri) return send(res, 400, '<p>KOE006: redirect_uri is not registered</p>');
    if (query.get('response_type') !== 'code') return send(res, 400, '<p>KOE201: response_type must be code</p>');
    const target = new URL(redirectUri);
    target.searchParams.set('code', this.issueCode(this.loginUser ?? {}, redirectUri));
    const state = query.get('state');
    if (state !== null) target.searchParams.set('state', state);
    res.writeHead(302, { location: target.toString() });
    res.end();
  }

  private token(request: ParsedRequest, res: ServerResponse): void {
    const { form } = request;
    this.lastTokenRequest = { method: request.method, contentType: request.contentType, params: Object.fromEntries(form) };
    const fail = (status: number, error: string, description: string, errorCode: string) =>
      send(res, status, { error, error_description: description, error_code: errorCode });
    if (request.method !== 'POST') return fail(405, 'invalid_request', 'method not allowed', 'KOE000');
    if (!request.contentType.startsWith('application/x-www-form-urlencoded')) return fail(400, 'invalid_request', 'unsupported content type', 'KOE000');
    if (form.get('grant_type') !== 'authorization_code') return fail(400, 'unsupported_grant_type', 'unsupported grant_type', 'KOE000');
    if (form.get('client_id') !== this.restApiKey) return fail(401, 'invalid_client', 'Bad client credentials', 'KOE010');
    if (this.clientSecret !== undefined && form.get('client_secret') !== this.clientSecret)
      return fail(401, 'invalid_client', 'Bad client credentials', 'KOE010');
    const code = form.get('code') ?? '';
    const issued = this.codes.get(code);
    this.codes.delete(code); // a code is spent by any attempt that names it
    if (!issued) return fail(400, 'invalid_grant', 'authorization code not found', 'KOE320');
    if (form.get('redirect_uri') !== issued.redirectUri) return fail(400, 'invalid_grant', 'Redirect URI mismatch.', 'KOE303');
    const accessToken = randomBytes(32).toString('base64url');
    this.accessTokens.set(accessToken, issued.user);
    send(res, 200, {
      token_type: 'bearer',
      access_token: accessToken,
      expires_in: 21599,
      refresh_token: randomBytes(32).toString('base64url'),
      refresh_token_expires_in: 5183999,
      scope: 'account_email profile_image profile_nickname',
    });
  }

  private me(request: ParsedRequest, res: ServerResponse): void {
    if (request.method !== 'GET' && request.method !== 'POST') return send(res, 405, { msg: 'method not allowed', code: -3 });
    const match = /^Bearer (\S+)$/i.exec(request.authorization ?? '');
    const user = match ? this.accessTokens.get(match[1]) : undefined;
    if (!user) return send(res, 401, { msg: 'this access token does not exist', code: -401 });
    const text = FakeKakao.userDocument(user);
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}

export async function startFakeKakao(options: FakeKakaoOptions = {}): Promise<FakeKakao> {
  const kakao = new FakeKakao(options);
  await kakao.start();
  return kakao;
}
