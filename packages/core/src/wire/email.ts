/**
 * Staff e-mail calls: sending one of the e-mail kinds to a user, and reading the outbox (the
 * e-mails the shop wrote, a one-time code always masked).
 */
import * as yup from 'yup';
import { EMAIL_KIND, EMAIL_KIND_NAMES, STAFF_ONLY_EMAIL_KINDS, isEmailKind, type EmailKind, type EmailKindName } from './email-kinds.js';
import { dateTime, id, integer, list, numberOf, text } from './fields.js';
import { limitRule, pageRule } from '../shared/paging.js';

const KIND_NUMBERS = Object.values(EMAIL_KIND);
const KIND_NAMES = Object.keys(EMAIL_KIND) as EmailKindName[];
const KIND_HELP = Object.entries(EMAIL_KIND_NAMES)
  .filter(([kind]) => !STAFF_ONLY_EMAIL_KINDS.includes(Number(kind) as EmailKind))
  .map(([kind, name]) => `${kind} ${name}`)
  .join(', ');

/** A kind given as its number (0 to 10, also as a string) or its name (`welcome`, any case). */
export function parseEmailKind(value: unknown): EmailKind | undefined {
  if (typeof value === 'number') return isEmailKind(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d{1,2}$/.test(text)) {
    const kind = Number(text);
    return isEmailKind(kind) ? kind : undefined;
  }
  const match = KIND_NAMES.find((name) => name.toLowerCase() === text.toLowerCase());
  return match === undefined ? undefined : EMAIL_KIND[match];
}

/** `emailType`: the kind's number or name; the handler receives the number. */
export const sendEmailBody = yup.object({
  userId: id('userId').required('userId is required'),
  emailType: yup
    // Kinds 11 (accountBroken), 13 (platformIncident) and 14 (renewalProviderError) go to staff alert addresses only, never to a user.
    .mixed((value): value is EmailKind => isEmailKind(value) && !STAFF_ONLY_EMAIL_KINDS.includes(value))
    .transform((value: unknown) => parseEmailKind(value) ?? value)
    .typeError(`emailType must be one of ${KIND_HELP}`)
    .required('emailType is required')
    .meta({
      description: `An e-mail kind, its number or its name: ${KIND_HELP}.`,
      schema: {
        anyOf: [
          { type: 'integer', enum: [...KIND_NUMBERS] },
          { type: 'string', enum: [...KIND_NAMES] },
        ],
      },
    }),
});

const kind = numberOf(KIND_NUMBERS).defined();
const kindName = yup.string().oneOf(KIND_NAMES).defined();
/** 1 English, 2 Korean: the user's language. */
const emailLanguage = numberOf([1, 2] as const).defined();

/** The e-mail written now, or the first one when the same request came within a minute (`repeated: true`, nothing new sent). */
export const sentEmailAnswer = yup.object({
  id: integer(),
  kind,
  kindName,
  to: text(),
  userId: integer(),
  languageId: emailLanguage,
  repeated: yup.boolean().defined(),
});

const OUTBOX_STATUSES = ['pending', 'sent', 'failed', 'kept'] as const;

export const outboxQuery = yup.object({
  page: pageRule(),
  limit: limitRule(),
  status: yup.string().oneOf(OUTBOX_STATUSES),
  userId: id('userId'),
});

const summaryFields = {
  id: integer(),
  kind,
  kindName,
  userId: integer().nullable(),
  to: text(),
  languageId: emailLanguage,
  subject: text(),
  status: yup.string().oneOf(OUTBOX_STATUSES).defined(),
  attempts: integer(),
  lastError: text().nullable(),
  idempotencyKey: text().nullable(),
  messageId: text().nullable(),
  createdAt: dateTime(),
  sentAt: dateTime().nullable(),
  lastAttemptAt: dateTime().nullable(),
};

/** One page of the outbox, newest first, without bodies. */
export const outboxPageAnswer = yup.object({
  items: list(yup.object(summaryFields).meta({ name: 'OutboxEmailSummary' })),
  count: integer(),
  pages: integer(),
  page: integer(),
  limit: integer(),
});

export const outboxEmailParams = yup.object({ id: id('id').required('id is required') });
/** One e-mail with its bodies (a code masked); every read is audited. */
export const outboxEmailAnswer = yup.object({ ...summaryFields, html: text(), text: text() });

/** Staff: try a failed e-mail again. */
export const outboxRetryBody = yup.object({ id: id('id').required('id is required') });
/** `queued`: this call queued it; false when it was waiting for delivery already (a second click changes nothing). */
export const outboxRetryAnswer = yup.object({ id: integer(), status: yup.string().oneOf(OUTBOX_STATUSES).defined(), queued: yup.boolean().defined() });

export type SendEmailInput = yup.InferType<typeof sendEmailBody>;
export type SentEmailAnswer = yup.InferType<typeof sentEmailAnswer>;
export type OutboxQuery = yup.InferType<typeof outboxQuery>;
export type OutboxPageAnswer = yup.InferType<typeof outboxPageAnswer>;
export type OutboxEmailAnswer = yup.InferType<typeof outboxEmailAnswer>;
export type OutboxRetryAnswer = yup.InferType<typeof outboxRetryAnswer>;
