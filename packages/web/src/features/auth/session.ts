/**
 * The logged-in user kept in localStorage (spec section 3 and 4): valid only while
 * tokenExpiration is later than now; an expired or unreadable entry is removed on read.
 */
import type { AuthResponse } from '../../services/api';
import { STORAGE_KEYS, readItem, removeItem, writeItem } from '../../services/storage';

export const ROLES = { user: 0, moderator: 1, admin: 2 } as const;

export interface SessionUser {
  id: number;
  token: string;
  tokenExpiration: string | number;
  photoUrl: string | null;
  role: number;
  isEmailVerified: boolean;
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

export function toSessionUser(response: AuthResponse): SessionUser {
  return {
    id: response.id,
    token: response.token,
    tokenExpiration: response.tokenExpiration,
    photoUrl: response.photoUrl ?? null,
    role: response.role ?? ROLES.user,
    isEmailVerified: Boolean(response.isEmailVerified),
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

export function loadReturnUrl(): string {
  return readItem(STORAGE_KEYS.returnUrl, 'session') ?? '/';
}

export function saveReturnUrl(url: string): void {
  writeItem(STORAGE_KEYS.returnUrl, url, 'session');
}
