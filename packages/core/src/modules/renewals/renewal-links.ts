/**
 * The links in renewal e-mails that work without logging in: a signed, single-purpose, expiring
 * token (shared/signed-tokens.ts). Its purpose says what it may do (`renewal-cancel`: stop
 * automatic renewal of one subscription; `renewal-pay`: the payment of its renewal); it names the
 * subscription (`sub`) and the period it was made for (`per`, the period's end). The signature
 * covers all of that and the purpose, so a cancel link cannot pay and a link for one subscription
 * cannot touch another.
 */
import { readToken, signToken } from '../../shared/signed-tokens.js';

export type RenewalLinkPurpose = 'cancel' | 'pay';

export interface RenewalLink {
  purpose: RenewalLinkPurpose;
  subscriptionId: number;
  /** The end date of the period the link was sent for (ms). */
  periodEnd: number;
  /** Unix ms after which the link no longer works (whole seconds: JWTs count in seconds). */
  expiresAt: number;
}

const PURPOSE = { cancel: 'renewal-cancel', pay: 'renewal-pay' } as const;

export function signRenewalLink(link: RenewalLink, secret: Uint8Array): Promise<string> {
  return signToken(secret, PURPOSE[link.purpose], { sub: String(link.subscriptionId), per: link.periodEnd }, new Date(link.expiresAt));
}

/** The link's content when the token is genuine, of this purpose and not expired; undefined otherwise. */
export async function readRenewalLink(token: string, purpose: RenewalLinkPurpose, secret: Uint8Array, now: Date): Promise<RenewalLink | undefined> {
  const claims = await readToken(secret, PURPOSE[purpose], token, now);
  const subscriptionId = Number(claims?.sub);
  if (!claims || !Number.isSafeInteger(subscriptionId) || subscriptionId <= 0 || !Number.isSafeInteger(claims.per)) return undefined;
  return { purpose, subscriptionId, periodEnd: claims.per as number, expiresAt: claims.exp! * 1000 };
}
