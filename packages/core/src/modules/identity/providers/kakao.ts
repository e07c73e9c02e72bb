/**
 * Kakao Login over the REST API (protocols.md section 6): authorize page → code → token (with the
 * same redirect URI) → user info. Implemented on the server, not shown on the login screen.
 *
 * Tokens and codes are credentials: they never appear in an error message or a log.
 */
import { type UnauthenticatedError, type UnavailableError, fail } from '../../../shared/errors.js';
import { bearerToken, fetchAnswer, FORM_CONTENT_TYPE, isObject, optionalString, requireParam } from './oauth-http.js';
import type { KakaoOAuthClient, SocialProfile } from './social-profile.js';

export interface KakaoOAuthOptions {
  /** KAKAO_REST_API_KEY: the app's REST API key, sent as `client_id`. */
  restApiKey: string;
  /** Only when "Client Secret" is enabled for the app. */
  clientSecret?: string;
  /** KAKAO_API_BASE: replaces `https://kauth.kakao.com` and `https://kapi.kakao.com`. */
  apiBase?: string;
  fetch?: typeof fetch;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
}

function loginFailed(): UnauthenticatedError {
  return fail('kakao_login_failed');
}

function unavailable(cause?: unknown): UnavailableError {
  return fail('kakao_unavailable', undefined, { cause: cause });
}

/**
 * JSON.parse, plus the top-level `id` exactly as written: Kakao's user id is a 64-bit number,
 * and a JS number loses digits beyond 2^53. JSON.parse's reviver sees the source text only on
 * Node 21+, so the digits are read from the text itself, on every Node.
 */
function parseWithRawId(text: string): { body: unknown; rawId?: string } {
  const body: unknown = JSON.parse(text);
  return { body, rawId: isObject(body) && typeof body.id === 'number' ? topLevelNumber(text, 'id') : undefined };
}

/**
 * The literal of a top-level number member of a JSON object text (already known to parse); the
 * last one when the name repeats, as JSON.parse keeps the last.
 */
function topLevelNumber(text: string, name: string): string | undefined {
  const numberAfterKey = /\s*:\s*(-?\d+)(?=\s*[,}])/y;
  let depth = 0;
  let found: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
    else if (char === '"') {
      // A string (skipping its escapes): a key of the top-level object when a colon follows it.
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const literal = text.slice(i, end + 1);
      i = end;
      if (depth !== 1) continue;
      numberAfterKey.lastIndex = end + 1;
      const number = numberAfterKey.exec(text);
      if (number && JSON.parse(literal) === name) found = number[1];
    }
  }
  return found;
}

export class KakaoOAuth implements KakaoOAuthClient {
  private readonly restApiKey: string;
  private readonly clientSecret?: string;
  private readonly authBase: string;
  private readonly apiBase: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: KakaoOAuthOptions) {
    if (!options.restApiKey) throw new TypeError('KakaoOAuth needs a REST API key');
    this.restApiKey = options.restApiKey;
    this.clientSecret = options.clientSecret || undefined;
    const base = options.apiBase?.replace(/\/+$/, '');
    this.authBase = base ?? 'https://kauth.kakao.com';
    this.apiBase = base ?? 'https://kapi.kakao.com';
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  authorizeUrl(state: string, redirectUri: string): string {
    const query = new URLSearchParams({ client_id: this.restApiKey, redirect_uri: redirectUri, response_type: 'code', state });
    return `${this.authBase}/oauth/authorize?${query}`;
  }

  async exchange(code: string, redirectUri: string): Promise<SocialProfile> {
    const accessToken = await this.requestToken(requireParam('Kakao', 'code', code), requireParam('Kakao', 'redirectUri', redirectUri));
    return this.readUser(accessToken);
  }

  private async requestToken(code: string, redirectUri: string): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: this.restApiKey, redirect_uri: redirectUri, code });
    if (this.clientSecret) form.set('client_secret', this.clientSecret);
    const { status, body } = await this.call(`${this.authBase}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': FORM_CONTENT_TYPE, accept: 'application/json' },
      body: form.toString(),
    });
    if (status !== 200 || (isObject(body) && body.error !== undefined)) throw status === 429 ? unavailable() : loginFailed();
    const accessToken = bearerToken(body);
    if (!accessToken) throw unavailable();
    return accessToken;
  }

  private async readUser(accessToken: string): Promise<SocialProfile> {
    // secure_resource=true: image URLs come back as https.
    const { status, body, rawId } = await this.call(`${this.apiBase}/v2/user/me?secure_resource=true`, {
      method: 'GET',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': FORM_CONTENT_TYPE, accept: 'application/json' },
    });
    // 401 bad token (-401), under-14 (-406); 400 not linked (-101) / dormant (-103); 403 missing consent (-402).
    if (status === 400 || status === 401 || status === 403) throw loginFailed();
    if (status !== 200 || !isObject(body)) throw unavailable();

    const id = rawId ?? (typeof body.id === 'string' ? body.id : Number.isSafeInteger(body.id) ? String(body.id) : undefined);
    if (!id || !/^\d{1,20}$/.test(id)) throw unavailable();

    const account = isObject(body.kakao_account) ? body.kakao_account : {};
    const profile = isObject(account.profile) ? account.profile : {};
    const properties = isObject(body.properties) ? body.properties : {};
    // Only an address Kakao calls both valid and verified is one we may use.
    const emailUsable = account.is_email_valid === true && account.is_email_verified === true;
    const email = emailUsable ? (optionalString(account.email)?.toLowerCase() ?? null) : null;
    const photoUrl = profile.is_default_image === true ? null : (optionalString(profile.profile_image_url) ?? optionalString(properties.profile_image));
    return {
      provider: 'kakao',
      providerUserId: id,
      email,
      emailVerified: email !== null,
      name: optionalString(profile.nickname) ?? optionalString(properties.nickname),
      photoUrl,
    };
  }

  /** One request with a timeout; network trouble, 5xx and non-JSON answers are "unavailable". */
  private async call(url: string, init: RequestInit): Promise<{ status: number; body: unknown; rawId?: string }> {
    const { status, text } = await fetchAnswer({ fetch: this.fetch, timeoutMs: this.timeoutMs }, url, init, unavailable);
    try {
      return { status, ...parseWithRawId(text) };
    } catch {
      if (status >= 400 && status < 500 && status !== 429) return { status, body: undefined };
      throw unavailable();
    }
  }
}
