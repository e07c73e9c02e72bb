/**
 * The links in renewal e-mails that work without logging in: a signed, single-purpose, expiring
 * token. It names what it may do (`cancel`: stop automatic renewal of one subscription; `pay`: the
 * payment of its renewal), the subscription, the period it was made for and when it expires; the
 * HMAC-SHA256 (key: the shop's token secret) covers all of that and the purpose, so a cancel link
 * cannot pay and a link for one subscription cannot touch another.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type RenewalLinkPurpose = 'cancel' | 'pay';

export interface RenewalLink {
  purpose: RenewalLinkPurpose;
  subscriptionId: number;
  /** The end date of the period the link was sent for (ms). */
  periodEnd: number;
  /** Unix ms after which the link no longer works. */
  expiresAt: number;
}

function mac(secret: string | Buffer, payload: string): Buffer {
  return createHmac('sha256', secret).update(`renewal-link.${payload}`).digest();
}

export function signRenewalLink(link: RenewalLink, secret: string | Buffer): string {
  const payload = Buffer.from(JSON.stringify([link.purpose, link.subscriptionId, link.periodEnd, link.expiresAt])).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The link's content when the token is genuine, of this purpose and not expired; undefined otherwise. */
export function readRenewalLink(token: string, purpose: RenewalLinkPurpose, secret: string | Buffer, now: Date): RenewalLink | undefined {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined || token.length > 400) return undefined;
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 4) return undefined;
  const [kind, subscriptionId, periodEnd, expiresAt] = fields as unknown[];
  if (kind !== purpose || !Number.isSafeInteger(subscriptionId) || !Number.isSafeInteger(periodEnd) || !Number.isSafeInteger(expiresAt)) return undefined;
  if ((expiresAt as number) <= now.getTime()) return undefined;
  return { purpose, subscriptionId: subscriptionId as number, periodEnd: periodEnd as number, expiresAt: expiresAt as number };
}
