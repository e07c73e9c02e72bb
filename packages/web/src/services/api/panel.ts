/**
 * The buyer's panel (spec sections 3 and 7): `GET /api/user/getuserpanel` and
 * `POST /api/order/setinvatiotaionemail`. Both carry the login's bearer token. Imported by the
 * panel chunk only.
 */
import type { panel, problemReports, referrals, renewals } from '@subshare/core/wire';
import { callApi } from './calls';

/**
 * The spec's "Subscription/order item": one entry of either list. Waiting items have no
 * subscription, slot, credentials or dates yet (null); `slotId` 0 is the whole account.
 */
export type PanelItem = panel.PanelItem;
/** Beyond the spec, `subscribersRefunded`: the items of refunded orders, without subscription or credentials. */
export type UserPanel = panel.PanelAnswer;
export type PanelUser = UserPanel['user'];

export function getUserPanel(id: number, languageId: number): Promise<UserPanel> {
  return callApi('getUserPanel', { query: { id, languageId: languageId as 1 | 2 } });
}

/** Stores the buyer's platform login e-mail for the family invitation; answers the stored e-mail (read-only from then on). */
export function setInvitationEmail(orderId: number, email: string): Promise<panel.InvitationEmailAnswer> {
  return callApi('setInvitationEmail', { body: { email, orderId } });
}

/** The newest household / travel link in the account's mailbox (video platforms); null until one arrives. Polled. */
export function getHouseholdLink(subscriptionId: number): Promise<panel.HouseholdLinkAnswer> {
  return callApi('getHouseholdLink', { query: { subscriptionId } });
}

/** The newest six-digit login code in the account's mailbox (AI-chat platforms); null until one arrives. Polled. */
export function getLoginCode(subscriptionId: number): Promise<panel.LoginCodeAnswer> {
  return callApi('getLoginCode', { query: { subscriptionId } });
}

/** A subscription's renewal as the panel shows it (issue 28). */
export type RenewalState = renewals.RenewalStateAnswer;

/** The holder turns automatic renewal on or off; answers the renewal as it now stands. */
export function setAutoRenew(subscriptionId: number, enabled: boolean): Promise<RenewalState> {
  return callApi('setAutoRenew', { body: { subscriptionId, enabled } });
}

/** Back from Stripe's card page: renewal on with the card saved there, only for the Checkout Session Stripe returned. */
export function renewalCardSaved(subscriptionId: number, sessionId: string): Promise<RenewalState> {
  return callApi('renewalCardSaved', { body: { subscriptionId, sessionId } });
}

/** Stripe's page where the holder saves a card to turn automatic renewal on (a card payment made without the opt-in). */
export function saveRenewalCard(subscriptionId: number): Promise<renewals.SaveCardAnswer> {
  return callApi('saveRenewalCard', { body: { subscriptionId } });
}

/** "It doesn't work" (issue 33): the holder reports a problem; the answer is the self-help to show at once. 409 `problem_already_reported` within the hour. */
export type ProblemHelp = problemReports.ReportProblemAnswer;
export type ProblemKind = problemReports.ReportProblemInput['kind'];

export function reportProblem(subscriptionId: number, kind: ProblemKind, note: string | undefined): Promise<ProblemHelp> {
  return callApi('reportProblem', { body: { subscriptionId, kind, note } });
}

/** "Invite friends" (issue 37): the buyer's referral code and link, the credit referrals earned, invited and rewarded friends. */
export type Referral = referrals.ReferralAnswer;

export function getReferral(): Promise<Referral> {
  return callApi('getReferral', {});
}
