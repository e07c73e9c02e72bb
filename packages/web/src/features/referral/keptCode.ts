/**
 * The referral code a visitor arrived with (`/?ref=CODE`, a friend's "Invite friends" link): kept
 * in this browser's own storage until the visitor signs up, then sent with the sign-up call
 * (`referralCode` of register, Google and Naver sign-in) and forgotten. Nothing else is recorded
 * about the visit, and no cookie is set. The server ignores a code that names nobody.
 *
 * Read by main.tsx on every arrival (small, no imports beyond storage) and by services/api/user.ts.
 */
import { REFERRAL_PARAM } from '@subshare/core/pages';
import { readItem, removeItem, STORAGE_KEYS, writeItem } from '../../services/storage';

/** How long a kept code waits for a sign-up: a link clicked long ago is nobody's invitation any more. */
export const REFERRAL_KEPT_DAYS = 30;
/** What may be a code (the server's codes are 8 of 31 letters and digits); anything else is not kept. */
const CODE = /^[A-Za-z0-9]{4,32}$/;

interface Kept {
  code: string;
  /** When it was kept (ms since the epoch). */
  at: number;
}

/** Keeps `?ref=` of the page's query, when there is one (a newer link replaces an older one). */
export function keepReferralCode(search: string, now = Date.now()): void {
  const code = new URLSearchParams(search).get(REFERRAL_PARAM)?.trim();
  if (!code || !CODE.test(code)) return;
  writeItem(STORAGE_KEYS.referral, JSON.stringify({ code: code.toUpperCase(), at: now } satisfies Kept));
}

/** The kept code, unless it is older than REFERRAL_KEPT_DAYS. */
export function keptReferralCode(now = Date.now()): string | undefined {
  const text = readItem(STORAGE_KEYS.referral);
  if (!text) return undefined;
  try {
    const kept = JSON.parse(text) as Partial<Kept>;
    if (typeof kept.code === 'string' && CODE.test(kept.code) && typeof kept.at === 'number' && now - kept.at < REFERRAL_KEPT_DAYS * 86_400_000)
      return kept.code;
  } catch {
    // Not ours any more: dropped below.
  }
  removeItem(STORAGE_KEYS.referral);
  return undefined;
}

/** The visitor has an account now: the code has done its work. */
export function forgetReferralCode(): void {
  removeItem(STORAGE_KEYS.referral);
}
