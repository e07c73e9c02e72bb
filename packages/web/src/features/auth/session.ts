/**
 * The logged-in user kept in localStorage (spec section 3 and 4): valid only while
 * tokenExpiration is later than now; an expired or unreadable entry is removed on read.
 */
import type { AuthResponse } from '../../services/api';
import { STORAGE_KEYS, readItem, removeItem, writeItem } from '../../services/storage';
import { safeReturnUrl } from '@subshare/core/storefront';

export const ROLES = { user: 0, moderator: 1, admin: 2 } as const;

export interface SessionUser {
  id: number;
  token: string;
  tokenExpiration: string | number;
  photoUrl: string | null;
  role: number;
  isEmailVerified: boolean;
  /**
   * The e-mail typed on the login page (not part of the login response). Kept so that an
   * unverified user who comes back later can be sent a code; absent after a social login.
   */
  email?: string;
}

/** Milliseconds since the epoch, or NaN. Numbers below 1e12 are taken as seconds. */
export function expirationTime(value: string | number): number {
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value;
  return Date.parse(value);
}

export function isSessionValid(user: SessionUser, now: number = Date.now()): boolean {
  const expiresAt = expirationTime(user.tokenExpiration);
  return Number.isFinite(expiresAt) && expiresAt > now;
}

/**
 * The login response of authenticate, register, the code check and the social logins, checked
 * before it is stored: a response without a usable token or expiry is an error, not a login.
 */
export function toSessionUser(response: AuthResponse, email?: string): SessionUser {
  const value: unknown = response;
  const candidate = (typeof value === 'object' && value !== null ? value : {}) as Partial<AuthResponse>;
  const { id, token, tokenExpiration } = candidate;
  if (typeof id !== 'number' || typeof token !== 'string' || !token) throw new Error('The login response has no user id or token.');
  if ((typeof tokenExpiration !== 'string' && typeof tokenExpiration !== 'number') || !Number.isFinite(expirationTime(tokenExpiration))) {
    throw new Error('The login response has no valid tokenExpiration.');
  }
  return {
    id,
    token,
    tokenExpiration,
    photoUrl: typeof candidate.photoUrl === 'string' && candidate.photoUrl ? candidate.photoUrl : null,
    role: typeof candidate.role === 'number' ? candidate.role : ROLES.user,
    isEmailVerified: candidate.isEmailVerified === true,
    ...(email ? { email } : {}),
  };
}

function parse(raw: string): SessionUser | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const candidate = value as Partial<SessionUser>;
    const expiration = candidate.tokenExpiration;
    if (typeof candidate.id !== 'number' || typeof candidate.token !== 'string' || !candidate.token) return null;
    if (typeof expiration !== 'string' && typeof expiration !== 'number') return null;
    return {
      id: candidate.id,
      token: candidate.token,
      tokenExpiration: expiration,
      photoUrl: typeof candidate.photoUrl === 'string' ? candidate.photoUrl : null,
      role: typeof candidate.role === 'number' ? candidate.role : ROLES.user,
      // Older entries without the flag count as verified; the server has the last word anyway.
      isEmailVerified: candidate.isEmailVerified !== false,
      ...(typeof candidate.email === 'string' && candidate.email ? { email: candidate.email } : {}),
    };
  } catch {
    return null;
  }
}

export function loadSession(now: number = Date.now()): SessionUser | null {
  const raw = readItem(STORAGE_KEYS.user);
  if (raw === null) return null;
  const user = parse(raw);
  if (user && isSessionValid(user, now)) return user;
  removeItem(STORAGE_KEYS.user);
  return null;
}

export function saveSession(user: SessionUser): void {
  writeItem(STORAGE_KEYS.user, JSON.stringify(user));
}

export function clearSession(): void {
  removeItem(STORAGE_KEYS.user);
}

/** Only a path of this site is a place to return to (one rule with the server's /checkout). */
export { safeReturnUrl };

export function loadReturnUrl(): string {
  return safeReturnUrl(readItem(STORAGE_KEYS.returnUrl, 'session'));
}

export function saveReturnUrl(url: string): void {
  writeItem(STORAGE_KEYS.returnUrl, url, 'session');
}
