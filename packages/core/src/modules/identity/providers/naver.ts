/**
 * Naver Login (OAuth 2.0, protocols.md section 5): we send the browser to Naver's authorize page
 * with our state; Naver sends it back with `code` and `state`; we exchange both for an access token
 * (server to server, with our client secret) and read the profile with it. The caller checks that
 * the returned state is the one it issued; Naver checks it again at the token step.
 *
 * Tokens and codes are credentials: they never appear in an error message or a log.
 */
import { type UnauthenticatedError, type UnavailableError, fail } from '../../../shared/errors.js';
import { bearerToken, fetchAnswer, FORM_CONTENT_TYPE, isObject, optionalString, requireParam } from './oauth-http.js';
import type { NaverOAuthClient, SocialProfile } from './social-profile.js';

export interface NaverOAuthOptions {
  /** NAVER_CLIENT_ID */
  clientId: string;
  /** NAVER_CLIENT_SECRET */
  clientSecret: string;
  /**
   * NAVER_API_BASE: replaces both `https://nid.naver.com` (authorize, token) and
   * `https://openapi.naver.com` (profile), so one local server can play Naver.
   */
  apiBase?: string;
  fetch?: typeof fetch;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
}

interface NaverToken {
  accessToken: string;
  expiresIn: number | null;
}

/** Token errors that mean "Naver is having trouble", not "this login is not valid". */
const NAVER_TRANSIENT_ERRORS = new Set(['server_error', 'temporarily_unavailable']);
/** Profile result codes that mean the access token was refused. */
const NAVER_REFUSED_RESULTCODES = new Set(['024', '028', '403']);

function loginFailed(): UnauthenticatedError {
  return fail('naver_login_failed');
}

function unavailable(cause?: unknown): UnavailableError {
  return fail('naver_unavailable', undefined, { cause: cause });
}

function parseExpiresIn(value: unknown): number | null {
  // The spec table says integer; Naver's own example answers the string "3600".
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

export class NaverOAuth implements NaverOAuthClient {
  private readonly clientId: string;
  private readonly clientSecret: string;
  private readonly authBase: string;
  private readonly apiBase: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: NaverOAuthOptions) {
    if (!options.clientId || !options.clientSecret) throw new TypeError('NaverOAuth needs a client id and a client secret');
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    const base = options.apiBase?.replace(/\/+$/, '');
    this.authBase = base ?? 'https://nid.naver.com';
    this.apiBase = base ?? 'https://openapi.naver.com';
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  authorizeUrl(state: string, redirectUri: string): string {
    const query = new URLSearchParams({ response_type: 'code', client_id: this.clientId, redirect_uri: redirectUri, state });
    return `${this.authBase}/oauth2.0/authorize?${query}`;
  }

  async exchange(code: string, state: string): Promise<SocialProfile> {
    const token = await this.requestToken(requireParam('Naver', 'code', code), requireParam('Naver', 'state', state));
    return this.readProfile(token);
  }

  private async requestToken(code: string, state: string): Promise<NaverToken> {
    const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: this.clientId, client_secret: this.clientSecret, code, state });
    const { status, body } = await this.call(`${this.authBase}/oauth2.0/token`, {
      method: 'POST',
      headers: { 'content-type': FORM_CONTENT_TYPE, accept: 'application/json' },
      body: form.toString(),
    });
    const error = isObject(body) ? optionalString(body.error) : null;
    if (error) throw NAVER_TRANSIENT_ERRORS.has(error) ? unavailable() : loginFailed();
    if (status !== 200) throw status === 429 ? unavailable() : loginFailed();
    const accessToken = bearerToken(body);
    if (!accessToken) throw unavailable();
    return { accessToken, expiresIn: isObject(body) ? parseExpiresIn(body.expires_in) : null };
  }

  private async readProfile(token: NaverToken): Promise<SocialProfile> {
    const { status, body } = await this.call(`${this.apiBase}/v1/nid/me`, {
      method: 'GET',
      headers: { authorization: `Bearer ${token.accessToken}`, accept: 'application/json' },
    });
    const resultcode = isObject(body) ? body.resultcode : undefined;
    if (status === 401 || status === 403 || (typeof resultcode === 'string' && NAVER_REFUSED_RESULTCODES.has(resultcode))) throw loginFailed();
    if (status !== 200 || resultcode !== '00' || !isObject(body) || !isObject(body.response)) throw unavailable();
    const profile = body.response;
    const id = optionalString(profile.id);
    if (!id || id.length > 255) throw unavailable();
    // Naver hands out the account's own e-mail address: present means verified.
    const email = optionalString(profile.email)?.toLowerCase() ?? null;
    return {
      provider: 'naver',
      providerUserId: id,
      email,
      emailVerified: email !== null,
      // The real name when shared; the nickname otherwise (Naver fills an unset nickname with a masked id).
      name: optionalString(profile.name) ?? optionalString(profile.nickname),
      photoUrl: optionalString(profile.profile_image),
    };
  }

  /** One request with a timeout; network trouble, 5xx and non-JSON answers are "unavailable". */
  private async call(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    const { status, text } = await fetchAnswer({ fetch: this.fetch, timeoutMs: this.timeoutMs }, url, init, unavailable);
    try {
      return { status, body: JSON.parse(text) as unknown };
    } catch {
      if (status === 401 || status === 403) return { status, body: undefined };
      throw unavailable();
    }
  }
}
