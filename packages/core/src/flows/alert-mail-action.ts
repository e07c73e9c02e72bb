/**
 * What a platform's mail does to its account (issue 33): the `action` recorded with it in
 * `account_alert_mail` (validation/mail-trust.ts). A mail only ever worsens health; a mail no rule
 * knows changes nothing and is listed for staff as `unclassified` (marking attention for every
 * unknown mail would put every account on attention within a week). Only mail that passed DMARC
 * for the platform's domain speaks for it: any other is kept for staff as `unverified` (with the
 * reason in `authentication`) and changes nothing.
 */
import { ALERT_KIND_HEALTH, type AccountHealthState, type AlertKind } from '../validation/alert-rules.js';
import type { AlertMailAction, MailAuthentication } from '../validation/mail-trust.js';

const RANK: Record<AccountHealthState, number> = { ok: 0, attention: 1, broken: 2 };

export function alertMailAction(authentication: MailAuthentication, verdict: AlertKind | 'unrecognised', current: AccountHealthState): AlertMailAction {
  if (authentication !== 'verified') return 'unverified';
  if (verdict === 'unrecognised') return 'unclassified';
  const wanted = ALERT_KIND_HEALTH[verdict];
  return wanted && RANK[wanted] > RANK[current] ? wanted : 'none';
}
