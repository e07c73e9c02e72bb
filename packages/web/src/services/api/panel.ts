/**
 * The buyer's panel (spec sections 3 and 7): `GET /api/user/getuserpanel` and
 * `POST /api/order/setinvatiotaionemail`. Both carry the login's bearer token. Imported by the
 * panel chunk only.
 */
import { apiGet, apiPost } from './client';

/**
 * The spec's "Subscription/order item": one entry of either list. Waiting items have no
 * subscription, slot, credentials or dates yet (null).
 */
export interface PanelItem {
  orderId: number;
  subscribeId: number | null;
  /** The plan type's name in the requested language. */
  type: string;
  /** The duration's name in the requested language. */
  duration: string;
  /** Beyond the spec: the platform to buy again for a renewal. */
  platformId: number;
  /** The platform's logo URL (e.g. `/media/platforms/streamio.svg`). */
  platformImgFileName: string;
  /** The platform's brand colour (beyond the spec). */
  platformColorOne?: string;
  platformName: string;
  /** 0 video streaming, 8 AI chat; others exist. */
  platformType: number;
  platformSlotCount: number;
  /** 0: the whole account; otherwise the profile number to use. */
  slotId: number | null;
  haveInvitation: boolean;
  invitationEmail: string | null;
  /** The username: the account's login e-mail, or the invitation e-mail for family invitations. */
  email: string | null;
  /** The account's password; null for family invitations and waiting items. */
  password: string | null;
  /** ISO date-times. */
  startTime: string | null;
  endTime: string | null;
  replacedFrom: number | null;
}

export interface PanelUser {
  /** The nickname; null when none was given. */
  name: string | null;
  email: string;
  photoUrl: string | null;
}

/** The spec's panel response: the user, the active subscriptions and the paid orders still waiting. */
export interface UserPanel {
  user: PanelUser;
  subscribers: PanelItem[];
  subscribersNotCompleted: PanelItem[];
}

export function getUserPanel(id: number, languageId: number): Promise<UserPanel> {
  return apiGet<UserPanel>('/api/user/getuserpanel', { id, languageId }, { auth: true });
}

/** Stores the buyer's platform login e-mail for the family invitation; answers the stored e-mail (read-only from then on). */
export function setInvitationEmail(orderId: number, email: string): Promise<{ email: string }> {
  return apiPost<{ email: string }>('/api/order/setinvatiotaionemail', { email, orderId }, { auth: true });
}

/** The newest household / travel link in the account's mailbox (video platforms); null until one arrives. Polled. */
export function getHouseholdLink(subscriptionId: number): Promise<{ link: string | null }> {
  return apiGet<{ link: string | null }>('/api/email/getnvlink', { subscriptionId }, { auth: true });
}

/** The newest six-digit login code in the account's mailbox (AI-chat platforms); null until one arrives. Polled. */
export function getLoginCode(subscriptionId: number): Promise<{ code: string | null }> {
  return apiGet<{ code: string | null }>('/api/email/getchgptcode', { subscriptionId }, { auth: true });
}
