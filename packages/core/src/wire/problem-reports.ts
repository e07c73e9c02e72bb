/**
 * A buyer's "it doesn't work" (issue 33): the report call with its self-help answer, and staff's
 * confirmation. What a report does (attention; two buyers or staff: broken, subject to the
 * circuit breaker) is in core/src/flows/account-reports.flow.ts.
 */
import * as yup from 'yup';
import { PROBLEM_KINDS, PROBLEM_NOTE_MAX, type ProblemKind } from '../validation/problem-reports.js';
import { dateTime, flag, integer, text } from './fields.js';
import { neededId } from './orders.js';

const kind = () =>
  yup
    .string()
    .strict()
    .typeError(`kind must be one of ${PROBLEM_KINDS.join(', ')}`)
    .oneOf([...PROBLEM_KINDS], `kind must be one of ${PROBLEM_KINDS.join(', ')}`) as unknown as yup.StringSchema<ProblemKind | undefined>;

export const reportProblemBody = yup.object({
  subscriptionId: neededId('subscriptionId'),
  kind: kind().required('kind is required'),
  note: yup.string().strict().typeError('note must be text').max(PROBLEM_NOTE_MAX, `note must be at most ${PROBLEM_NOTE_MAX} characters`).optional(),
});

/** What the buyer can try at once, and that we are on it. */
export const reportProblemAnswer = yup
  .object({
    reportId: integer(),
    subscriptionId: integer(),
    kind: kind().defined(),
    reportedAt: dateTime(),
    /**
     * The login they should be using (the password is in the panel, behind its own button):
     * `loginEmail` is null for a family invitation (the buyer logs in with their own e-mail).
     * `mayNotWork`: the account is being repaired, the buyer is moved as soon as a slot frees.
     */
    credentials: yup.object({ loginEmail: text().nullable(), mayNotWork: flag() }),
    /** `householdLink`: the platform asks to confirm the household (video); `loginCode`: it e-mails a login code (AI chat); `none`. */
    help: yup
      .string()
      .oneOf(['householdLink', 'loginCode', 'none'] as const)
      .defined(),
    /** Always true: staff and the shop are checking the account. */
    checking: flag(),
  })
  .meta({ name: 'ProblemReportHelp' });

export const confirmReportBody = yup.object({ reportId: neededId('reportId') });
export const confirmReportAnswer = yup.object({
  reportId: integer(),
  accountId: integer(),
  state: yup
    .string()
    .oneOf(['ok', 'attention', 'broken'] as const)
    .defined(),
});

export type ReportProblemInput = yup.InferType<typeof reportProblemBody>;
export type ReportProblemAnswer = yup.InferType<typeof reportProblemAnswer>;
export type ConfirmReportInput = yup.InferType<typeof confirmReportBody>;
