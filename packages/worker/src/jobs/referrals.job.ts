/** Referral credit (issue 37): the handler only calls core's grant pass, which decides each referral once (its row locked, its credit keyed by the referral). */
import { REFERRAL_QUEUES, ReferralFlow } from '@subshare/core';
import { bindJob } from './job.js';

export const REFERRAL_JOBS = [bindJob(REFERRAL_QUEUES.grant, (_job, { container }) => container.get(ReferralFlow).grantDue())];
