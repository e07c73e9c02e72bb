/**
 * The buyer's panel: the panel itself (profile, active subscriptions with their credentials,
 * paid orders still waiting), the family-invitation e-mail, and the verification fetch (the
 * household link or login code that reached the account's mailbox).
 */
import * as yup from 'yup';
import { renewalState } from './renewals.js';
import { invitationEmailSchema } from '../validation/index.js';
import { dateTime, flag, id, integer, languageId, list, text } from './fields.js';

/** `id`: whose panel (your own; staff: anyone's, the credentials read audited). */
export const panelQuery = yup.object({
  id: id('id').required('id is required'),
  languageId: languageId.default(1),
});

/** The spec's "Subscription/order item"; null where it does not apply yet (a waiting order has no slot). */
export const panelItem = yup
  .object({
    orderId: integer(),
    subscribeId: integer().nullable(),
    type: text(),
    duration: text(),
    platformId: integer(),
    platformImgFileName: text(),
    /** Beyond the spec: the brand colour behind the (white) logo. */
    platformColorOne: text(),
    platformName: text(),
    /** 0 video streaming (household links), 1 music, 8 AI chat (login codes). */
    platformType: integer(),
    platformSlotCount: integer(),
    slotId: integer().nullable(),
    haveInvitation: flag(),
    invitationEmail: text().nullable(),
    /** The account's login e-mail, or the invitation e-mail on family-invitation platforms. */
    email: text().nullable(),
    /** Null for family invitations and waiting items. */
    password: text().nullable(),
    /** When the buyer's access began: after a move, the start of the subscription they bought, not of the move (issue 33). */
    startTime: dateTime().nullable(),
    endTime: dateTime().nullable(),
    /** The subscription this one replaced (staff moved it off a broken account). */
    replacedFrom: integer().nullable(),
    /**
     * Beyond the spec (issue 33): the subscription ID the buyer knows, the first of its
     * replacement chain; the same as `subscribeId` unless it was moved. The panel shows this one;
     * calls about the subscription take `subscribeId`.
     */
    knownSubscribeId: integer().nullable(),
    /**
     * Beyond the spec (issue 29): `ok`; `repairing` (the account broke, no healthy account had a
     * free slot yet: moved as soon as one frees); `moved` (the shop moved the buyer here when their
     * account broke).
     */
    health: yup
      .string()
      .oneOf(['ok', 'repairing', 'moved'] as const)
      .defined(),
    /** Beyond the spec (issue 28): active subscriptions' renewal (automatic by card, or a payment link by e-mail); null elsewhere. */
    autoRenew: renewalState.nullable().default(null),
  })
  .meta({ name: 'PanelItem' });

/** The spec's "Panel response". */
export const panelAnswer = yup.object({
  user: yup.object({ name: text().nullable(), email: text(), photoUrl: text().nullable() }).defined(),
  /** Active subscriptions, with what the buyer needs to log in. */
  subscribers: list(panelItem),
  /** Paid orders' items waiting for activation. */
  subscribersNotCompleted: list(panelItem),
  /** Beyond the spec: the items of refunded orders (their money went back), without subscription or credentials. */
  subscribersRefunded: list(panelItem),
});

/** Your platform login e-mail for a family invitation on your order; once set, read-only. */
export const invitationEmailBody = invitationEmailSchema().shape({ orderId: id('orderId').min(1, 'orderId is required').required('orderId is required') });
export const invitationEmailAnswer = yup.object({ email: text() });

const DATE_TEXT = /^\d+$/;
/** `since` as a date: milliseconds since 1970 (digits), else any date `Date` reads (ISO 8601). */
export const sinceDate = (since: string): Date => new Date(DATE_TEXT.test(since) ? Number(since) : since);

/**
 * The verification fetch: `since` narrows "received after" (e.g. the moment the buyer started
 * the login); the server never looks further back than its own window.
 */
export const verificationMailQuery = yup.object({
  subscriptionId: id('subscriptionId').required('subscriptionId is required'),
  since: yup
    .string()
    .test('date', 'since must be a date (ISO 8601 or milliseconds since 1970)', (value) => value === undefined || !Number.isNaN(sinceDate(value).getTime()))
    .optional(),
});
/** The newest household / travel link; null until one is found. */
export const householdLinkAnswer = yup.object({ link: text().nullable() });
/** The newest six-digit login code; null until one is found. */
export const loginCodeAnswer = yup.object({ code: text().nullable() });

export type PanelQuery = yup.InferType<typeof panelQuery>;
export type PanelItem = yup.InferType<typeof panelItem>;
export type PanelAnswer = yup.InferType<typeof panelAnswer>;
export type InvitationEmailInput = yup.InferType<typeof invitationEmailBody>;
export type InvitationEmailAnswer = yup.InferType<typeof invitationEmailAnswer>;
export type VerificationMailQuery = yup.InferType<typeof verificationMailQuery>;
export type HouseholdLinkAnswer = yup.InferType<typeof householdLinkAnswer>;
export type LoginCodeAnswer = yup.InferType<typeof loginCodeAnswer>;
