/**
 * The referral rules that need nothing but their input (unit-tested): what a referral code looks
 * like, when two addresses are one person's, and the calendar month a reward counts in.
 */
import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L: a code read aloud or copied from a screen is typed right the first time. */
export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE_LENGTH = 8;
/** What a code given back in `?ref=` may look like (any case); anything else is ignored. */
export const REFERRAL_CODE_PATTERN = new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`, 'i');

/** A new random code (31^8 ≈ 8.5 × 10^11 of them: the unique index settles the rare collision). */
export function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i += 1) code += REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)];
  return code;
}

/** The stored form of a code typed in any case; undefined when it cannot be a code. */
export function canonicalCode(code: string | null | undefined): string | undefined {
  const trimmed = (code ?? '').trim();
  return REFERRAL_CODE_PATTERN.test(trimmed) ? trimmed.toUpperCase() : undefined;
}

/** Domains whose mailbox ignores dots in the local part (Gmail's rule; googlemail.com is the same mailbox). */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address reaches: lower case, without a `+tag`, and for Gmail without dots in the
 * local part. `Ann.Lee+shop@GoogleMail.com` and `annlee@gmail.com` are one mailbox.
 */
export function mailboxOf(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus >= 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS[domain]) {
    domain = DOTLESS_DOMAINS[domain];
    local = local.replaceAll('.', '');
  }
  return `${local}@${domain}`;
}

export function sameMailbox(a: string, b: string): boolean {
  return mailboxOf(a) === mailboxOf(b);
}

/** The first instant of the calendar month (UTC) `at` falls in: the monthly cap counts from there. */
export function monthStartUtc(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** Why a referral earned nothing (kept on the referral for staff). */
export const REFUSED_REASONS = ['same_address', 'same_card', 'refunded', 'charged_back', 'monthly_cap'] as const;
export type RefusedReason = (typeof REFUSED_REASONS)[number];
