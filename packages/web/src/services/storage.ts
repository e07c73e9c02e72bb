/**
 * localStorage that never throws: private modes, disabled storage and quota errors must not
 * break the shop, they only cost the visitor their remembered choices.
 */

/** Keys other code (and browser tests) rely on; keep them stable. */
export const STORAGE_KEYS = {
  /** The logged-in user: { id, token, tokenExpiration, photoUrl, role, isEmailVerified }. */
  user: 'subshare.user',
  /** The chosen language id, "1" or "2". */
  language: 'subshare.languageId',
  /** Where to go after logging in; sessionStorage, so it survives a social-login redirect. */
  returnUrl: 'subshare.returnUrl',
  /** The `state` of the Naver login under way (sessionStorage), checked on /naver/callback. */
  naverState: 'subshare.naverState',
  /** The currency the visitor chose with the switch in the navigation bar, "EUR" or "KRW". */
  currency: 'subshare.currency',
  /**
   * The platform, type and duration chosen for the payment page (sessionStorage, JSON
   * `{ platformId, typeId, durationId }`), so the choice survives the login redirect.
   */
  selection: 'subshare.selection',
  /** A friend's referral code from `/?ref=` (JSON `{ code, at }`), kept until sign-up (features/referral/keptCode.ts). */
  referral: 'subshare.referral',
} as const;

type Area = 'local' | 'session';

function area(kind: Area): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string, kind: Area = 'local'): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string, kind: Area = 'local'): void {
  try {
    area(kind)?.setItem(key, value);
  } catch {
    // Storage full or blocked: the choice lasts for this page only.
  }
}

export function removeItem(key: string, kind: Area = 'local'): void {
  try {
    area(kind)?.removeItem(key);
  } catch {
    // Nothing to clean up when storage is unavailable.
  }
}
