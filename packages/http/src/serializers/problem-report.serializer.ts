import type { ProblemSelfHelp } from '@subshare/core';

/** A buyer's problem report answered with self-help: the login to use, the steps that may help, and that we are checking. */
export function serializeSelfHelp(answer: ProblemSelfHelp) {
  return {
    reportId: answer.report.id,
    subscriptionId: answer.report.subscriptionId,
    kind: answer.report.kind,
    reportedAt: answer.report.reportedAt.toISOString(),
    credentials: { loginEmail: answer.loginEmail, mayNotWork: answer.mayNotWork },
    help: answer.help,
    checking: true,
  };
}
