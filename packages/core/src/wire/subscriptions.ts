/**
 * Staff work on subscriptions and what they run on (spec section 6): activating a waiting order
 * now, moving a subscription off a broken account, adding a platform account (the spec's
 * "subscriber") and the mailboxes behind account logins (the spec's "bemail").
 */
import * as yup from 'yup';
import { platformAccountSchema } from '../validation/index.js';
import { dateTime, id, integer, list, text } from './fields.js';

/** A positive id; 0 is answered as missing ("orderId is required"), as these calls always have. */
const chosenId = (label: string) => id(label).min(1, `${label} is required`).required(`${label} is required`);

export const activateBody = yup.object({ orderId: chosenId('orderId') });
/** The order, now completed (state 2), and the slots it got. */
export const activateAnswer = yup.object({
  orderId: integer(),
  state: integer(),
  subscribers: list(
    yup.object({
      subscribeId: integer(),
      platformAccountId: integer(),
      slotId: integer(),
      platformSlotCount: integer(),
      startTime: dateTime(),
      endTime: dateTime(),
    }),
  ),
});

export const replaceBody = yup.object({ subscribeId: chosenId('subscribeId'), orderId: chosenId('orderId') });
/** The new subscription: from now to the old end date, on another account's free slot. */
export const replaceAnswer = yup.object({
  subscribeId: integer(),
  replacedFrom: integer(),
  platformAccountId: integer(),
  slotId: integer(),
  platformSlotCount: integer(),
  startTime: dateTime(),
  endTime: dateTime(),
});

/** A shared account on a platform: its login, password (stored encrypted), slots and forwarding e-mail. */
export const accountBody = platformAccountSchema();
/** The account as staff see it: never its password. `mailboxId`: our mailbox behind its login, if any. */
export const accountAnswer = yup.object({
  id: integer(),
  platformId: integer(),
  email: text(),
  slotsCount: integer(),
  femail: text(),
  mailboxId: integer().nullable(),
});

/** The spec spells the parameter `plaformId`; `platformId` is accepted as well (both given: they must agree). */
/** `plaformId` (the spec's spelling) or `platformId`, equal when both are given. */
const platformOfMailbox = () =>
  yup
    .object({ plaformId: id('plaformId'), platformId: id('platformId') })
    .test('agree', (value, context) =>
      value?.plaformId === undefined || value?.platformId === undefined || value.plaformId === value.platformId
        ? true
        : context.createError({ path: 'plaformId', message: 'differs from platformId' }),
    );
export const mailboxQuery = platformOfMailbox();
/** Listing mailboxes needs the platform. */
export const mailboxListQuery = platformOfMailbox()
  .test('platform', (value, context) =>
    value?.plaformId !== undefined || value?.platformId !== undefined ? true : context.createError({ path: 'plaformId', message: 'plaformId is required' }),
  )
  .meta({ requiredOneOf: ['plaformId', 'platformId'] });
/** The spec's Mailbox with its password (staff only, audited), plus `platformId` (null: not assigned yet). */
export const mailbox = yup.object({ id: integer(), email: text(), password: text(), platformId: integer().nullable() }).meta({ name: 'Mailbox' });
export const mailboxesAnswer = list(mailbox);

export type ActivateInput = yup.InferType<typeof activateBody>;
export type ActivateAnswer = yup.InferType<typeof activateAnswer>;
export type ReplaceInput = yup.InferType<typeof replaceBody>;
export type ReplaceAnswer = yup.InferType<typeof replaceAnswer>;
export type AccountInput = yup.InferType<typeof accountBody>;
export type AccountAnswer = yup.InferType<typeof accountAnswer>;
export type MailboxQuery = yup.InferType<typeof mailboxQuery>;
export type MailboxAnswer = yup.InferType<typeof mailbox>;
