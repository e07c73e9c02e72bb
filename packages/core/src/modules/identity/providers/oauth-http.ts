/**
 * What the Naver and Kakao OAuth clients share (Google's token reader uses `optionalString`):
 * reading untrusted answers (a trimmed string or null, a plain object), checking the parameters
 * a browser brought back, the bearer token of a token answer, and one request with a timeout.
 * Each client keeps what its provider does differently (error codes, id formats, which non-JSON
 * answers mean "refused").
 *
 * Tokens and codes are credentials: they never appear in an error message or a log.
 */
import { ValidationError } from '../../../shared/errors.js';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded;charset=utf-8';
const MAX_PARAM_LENGTH = 2048;

/** A non-blank string, trimmed; null for anything else. */
export function optionalString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A parameter the browser brought back (`code`, `state`, the redirect URI): present and of sane length, or 400. */
export function requireParam(provider: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_PARAM_LENGTH) {
    throw new ValidationError(`The ${provider} ${name} is missing or invalid.`, { [name]: 'required' });
  }
  return value;
}

/** The access token of a token answer; null when it is missing or not a bearer token. */
export function bearerToken(body: unknown): string | null {
  const accessToken = isObject(body) ? optionalString(body.access_token) : null;
  const tokenType = isObject(body) ? optionalString(body.token_type) : null;
  return accessToken && (tokenType === null || tokenType.toLowerCase() === 'bearer') ? accessToken : null;
}

/**
 * One request with a timeout and no redirects followed: its status and text. Network trouble and
 * 5xx answers throw `unavailable` (the provider's own error); the caller reads the text.
 */
export async function fetchAnswer(
  http: { fetch: typeof fetch; timeoutMs: number },
  url: string,
  init: RequestInit,
  unavailable: (cause?: unknown) => Error,
): Promise<{ status: number; text: string }> {
  let status: number;
  let text: string;
  try {
    const response = await http.fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(http.timeoutMs) });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw unavailable(error);
  }
  if (status >= 500) throw unavailable();
  return { status, text };
}
