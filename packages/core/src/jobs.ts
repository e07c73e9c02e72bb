/**
 * Every job there is, each declared once by the module that sends to its queue
 * (`modules/<module>/queues.ts`, a `JobDeclaration`: queue, policy, schedule, purpose, `servedBy`).
 * The queues are created from this list at start (createQueues), the worker binds one handler to
 * each (packages/worker/src/jobs/) and docs/jobs.md is generated from it (`npm run docs`).
 */
import type { JobDeclaration } from './shared/jobs.js';
import { OPERATIONS_QUEUES } from './modules/operations/index.js';
import { ORDER_QUEUES } from './modules/orders/index.js';
import { PAYMENT_QUEUES } from './modules/payments/index.js';
import { NOTIFICATIONS_QUEUES } from './modules/notifications/index.js';
import { ACCOUNT_QUEUES } from './modules/accounts/index.js';
import { SUBSCRIPTION_QUEUES } from './modules/subscriptions/index.js';
import { RENEWAL_QUEUES } from './modules/renewals/index.js';
import { CREDIT_QUEUES } from './modules/credit/index.js';
import { REFERRAL_QUEUES } from './modules/referrals/index.js';

export const JOB_DECLARATIONS: readonly JobDeclaration[] = [
  ...Object.values(OPERATIONS_QUEUES),
  ...Object.values(NOTIFICATIONS_QUEUES),
  ...Object.values(ORDER_QUEUES),
  ...Object.values(PAYMENT_QUEUES),
  ...Object.values(ACCOUNT_QUEUES),
  ...Object.values(SUBSCRIPTION_QUEUES),
  ...Object.values(RENEWAL_QUEUES),
  ...Object.values(CREDIT_QUEUES),
  ...Object.values(REFERRAL_QUEUES),
];
