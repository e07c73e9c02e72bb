/**
 * Account health (issue 29), staff calls: the accounts by health with their buyers, setting an
 * account's health by hand with a reason, and giving moved buyers back the time they lost.
 */
import * as yup from 'yup';
import { ACCOUNT_HEALTH_STATES, ALERT_KINDS } from '../validation/alert-rules.js';
import { PROBLEM_KINDS } from '../validation/problem-reports.js';
import { ALERT_MAIL_ACTIONS, MAIL_AUTHENTICATIONS } from '../validation/mail-trust.js';
import { dateTime, id, integer, languageId, list, text } from './fields.js';

const chosenId = (label: string) => id(label).min(1, `${label} is required`).required(`${label} is required`);
const state = () =>
  yup
    .string()
    .oneOf([...ACCOUNT_HEALTH_STATES], `state must be one of ${ACCOUNT_HEALTH_STATES.join(', ')}`)
    .defined() as unknown as yup.StringSchema<(typeof ACCOUNT_HEALTH_STATES)[number]>;

export const REASON_MAX = 500;

/** `platformId`: only that platform's accounts (all when absent); `languageId`: the language of the platform names (English when absent). */
export const accountHealthQuery = yup.object({ platformId: id('platformId'), languageId: languageId.optional() });

export const setAccountHealthBody = yup.object({
  accountId: chosenId('accountId'),
  state: state().required('state is required'),
  reason: yup
    .string()
    .typeError('reason must be text')
    .trim()
    .required('reason is required')
    .max(REASON_MAX, `reason must be at most ${REASON_MAX} characters`),
});

export const extendLostTimeBody = yup.object({ accountId: chosenId('accountId') });

/** Why the account is in its state: the platform's mail (never a code or link), or staff's reason. */
const cause = yup
  .object({
    /** An alert kind, `unrecognised` (the platform's sender, no rule knew the mail), `buyerReports` (issue 33), or `staff`. */
    kind: yup
      .string()
      .oneOf([...ALERT_KINDS, 'unrecognised', 'buyerReports', 'staff'] as const)
      .defined(),
    subject: text().nullable(),
    sender: text().nullable(),
    receivedAt: dateTime().nullable(),
    reason: text().nullable(),
    by: text().nullable(),
  })
  .nullable()
  .defined();

const buyer = yup.object({
  subscriptionId: integer(),
  userId: integer(),
  slot: integer(),
  endTime: dateTime(),
  /** `onAccount`: still on this account; `waiting`: to be moved as soon as a slot frees; `moved`. */
  status: yup
    .string()
    .oneOf(['onAccount', 'waiting', 'moved'] as const)
    .defined(),
  toSubscriptionId: integer().nullable(),
  toAccountId: integer().nullable(),
  toSlot: integer().nullable(),
  movedAt: dateTime().nullable(),
  /** From the breakage to the move (or until now while waiting), in minutes, rounded up. */
  lostMinutes: integer().nullable(),
  /** What staff gave back, in minutes. */
  extendedMinutes: integer().nullable(),
});

/** A buyer's "it doesn't work" on this account (issue 33): staff confirm it to break the account. */
const problemReport = yup.object({
  reportId: integer(),
  subscriptionId: integer(),
  userId: integer(),
  kind: yup
    .string()
    .oneOf([...PROBLEM_KINDS])
    .defined(),
  /** The buyer's own words, if any. */
  note: text().nullable(),
  reportedAt: dateTime(),
  confirmedAt: dateTime().nullable(),
});

/**
 * The platform's circuit breaker is open (issue 33): more of its accounts would have turned broken
 * within an hour than ACCOUNT_BREAKS_PER_HOUR allows, so further breaks wait for staff.
 */
const platformIncident = yup.object({
  incidentId: integer(),
  openedAt: dateTime(),
  lastHeldAt: dateTime(),
  /** Breaks held so far, and the accounts they were of. */
  held: integer(),
  heldAccountIds: list(integer()),
  breaksPerHour: integer(),
});

/**
 * One recorded platform mail with its verdicts (issue 33): `authentication` (null: recorded before
 * the shop checked), the rule `kind` that matched (`unrecognised`: none), the `action` taken (null:
 * recorded before actions were kept). Never a code, a link or the body.
 */
const recentMail = yup.object({
  id: integer(),
  receivedAt: dateTime(),
  sender: text(),
  subject: text(),
  kind: yup
    .string()
    .oneOf([...ALERT_KINDS, 'unrecognised'] as const)
    .defined(),
  action: yup
    .string()
    .oneOf([...ALERT_MAIL_ACTIONS])
    .nullable()
    .defined(),
  authentication: yup
    .string()
    .oneOf([...MAIL_AUTHENTICATIONS])
    .nullable()
    .defined(),
  /** A household or verification link in it pointed outside the platform's link hosts and was not handed out. */
  linkDropped: yup.boolean().defined(),
});

export const accountHealthItem = yup
  .object({
    accountId: integer(),
    platformId: integer(),
    platformName: text(),
    email: text(),
    slotsCount: integer(),
    isActive: yup.boolean().defined(),
    state: state(),
    since: dateTime().nullable(),
    cause,
    buyers: list(buyer),
    /** Buyers' problem reports of the last week, newest first (at most 20). */
    reports: list(problemReport),
    /** The platform's open incident (the same on each of its accounts), or null. */
    incident: platformIncident.nullable().defined(),
    /** Its newest recorded platform mails, newest first (at most 10). */
    mails: list(recentMail),
  })
  .meta({ name: 'AccountHealth' });
export const accountHealthAnswer = list(accountHealthItem);

export const setAccountHealthAnswer = yup.object({ accountId: integer(), state: state(), since: dateTime().nullable() });

export const extendLostTimeAnswer = yup.object({
  extended: list(yup.object({ subscriptionId: integer(), minutes: integer() })),
  /** New subscriptions whose longer period would meet another on their slot: not extended. */
  skipped: list(integer()),
});

export type AccountHealthQuery = yup.InferType<typeof accountHealthQuery>;
export type SetAccountHealthInput = yup.InferType<typeof setAccountHealthBody>;
export type ExtendLostTimeInput = yup.InferType<typeof extendLostTimeBody>;
export type AccountHealthItem = yup.InferType<typeof accountHealthItem>;
export type AccountHealthAnswer = yup.InferType<typeof accountHealthAnswer>;
export type ExtendLostTimeAnswer = yup.InferType<typeof extendLostTimeAnswer>;
