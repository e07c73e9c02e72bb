/** Staff work on subscriptions: activate, replace, add a platform account, make and list mailboxes, account health. */
import * as accountHealth from '../account-health.js';
import { declare } from '../declare.js';
import * as problemReports from '../problem-reports.js';
import * as subscriptions from '../subscriptions.js';

const ACCOUNTS = 'core/src/modules/accounts/accounts.service.ts';

export const activateSubscription = declare({
  operationId: 'activateSubscription',
  method: 'post',
  path: '/api/webhook/activatesubscribe',
  access: 'staff',
  tag: 'staff',
  summary: 'Activate a waiting order now (invitations included)',
  description: '404 `order_not_found`, 409 `order_not_waiting` or `no_free_slot`; audited as `order.activate`.',
  body: subscriptions.activateBody,
  answer: subscriptions.activateAnswer,
  errors: ['order_not_found', 'order_not_waiting', 'no_free_slot', 'already_activated'],
  servedBy: 'core/src/flows/activation.flow.ts',
});

export const replaceSubscription = declare({
  operationId: 'replaceSubscription',
  method: 'post',
  path: '/api/webhook/replacesubscribe',
  access: 'staff',
  tag: 'staff',
  summary: "Move a subscription to another account's free slot, same end date",
  description: '404 unknown order or subscription, 400 `order_mismatch`, 409 `subscription_not_active` or `no_free_slot` (nothing changes then).',
  body: subscriptions.replaceBody,
  answer: subscriptions.replaceAnswer,
  errors: ['order_not_found', 'subscription_not_found', 'order_mismatch', 'subscription_not_active', 'no_free_slot'],
  servedBy: 'core/src/flows/replacement.flow.ts',
});

export const createAccount = declare({
  operationId: 'createAccount',
  method: 'post',
  path: '/api/subscribe/insert',
  access: 'admin',
  tag: 'staff',
  summary: 'Create a platform account with its slots',
  description: 'The password is stored encrypted and never answered; new capacity lets waiting orders of the platform be activated.',
  body: subscriptions.accountBody,
  answer: subscriptions.accountAnswer,
  errors: ['platform_not_found', 'account_exists'],
  servedBy: ACCOUNTS,
});

export const createMailbox = declare({
  operationId: 'createMailbox',
  method: 'get',
  path: '/api/subscribe/createbemail',
  access: 'admin',
  tag: 'staff',
  summary: 'Generate a mailbox on MAILBOX_DOMAIN',
  description: 'Its generated password is answered this once; without a platform the mailbox is offered for every platform.',
  query: subscriptions.mailboxQuery,
  answer: subscriptions.mailbox,
  errors: ['platform_not_found', 'mailbox_address_exhausted'],
  servedBy: ACCOUNTS,
});

export const listMailboxes = declare({
  operationId: 'listMailboxes',
  method: 'get',
  path: '/api/subscribe/getbemails',
  access: 'staff',
  tag: 'staff',
  summary: "A platform's mailboxes (audited reveal)",
  description: "The platform's and the unassigned mailboxes, passwords included; `plaformId` (or `platformId`) is required.",
  query: subscriptions.mailboxListQuery,
  answer: subscriptions.mailboxesAnswer,
  errors: ['platform_not_found'],
  servedBy: ACCOUNTS,
});

// Account health (issue 29): the platforms' alert mails mark accounts broken; staff see and repair.
const ACCOUNT_HEALTH = 'core/src/flows/account-health.flow.ts';

export const getAccountHealth = declare({
  operationId: 'getAccountHealth',
  method: 'get',
  path: '/api/subscribe/accounthealth',
  access: 'staff',
  tag: 'staff',
  summary: 'Accounts by health, broken first: since when, why, their buyers and where they went, their recent mails',
  description:
    '`platformId` narrows to one platform; `languageId` (1 English, the default, or 2 Korean) is the language of `platformName`. `cause` is the platform mail (subject, sender, time; never a code or link) or staff reason. `mails`: the 10 newest recorded platform mails with their verdicts (authenticated or not, rule kind, action), never a code, link or body.',
  query: accountHealth.accountHealthQuery,
  answer: accountHealth.accountHealthAnswer,
  errors: [],
  servedBy: ACCOUNT_HEALTH,
});

export const setAccountHealth = declare({
  operationId: 'setAccountHealth',
  method: 'post',
  path: '/api/subscribe/setaccounthealth',
  access: 'staff',
  tag: 'staff',
  summary: "Set an account's health by hand (ok after a repair, broken), with a reason",
  description:
    '404 `account_not_found`. Broken moves its buyers (and, the last active account of its platform, takes the platform off sale); ok leaves buyers still waiting on the account (and puts an off-sale platform back on sale). Audited as `account.health.set`.',
  body: accountHealth.setAccountHealthBody,
  answer: accountHealth.setAccountHealthAnswer,
  errors: ['account_not_found'],
  servedBy: ACCOUNT_HEALTH,
});

export const extendLostTime = declare({
  operationId: 'extendLostTime',
  method: 'post',
  path: '/api/subscribe/extendlosttime',
  access: 'staff',
  tag: 'staff',
  summary: 'Give the buyers moved off a broken account the time they lost',
  description: '404 `account_not_found`, 409 `nothing_to_extend`. Once per moved buyer; audited as `account.health.extend`.',
  body: accountHealth.extendLostTimeBody,
  answer: accountHealth.extendLostTimeAnswer,
  errors: ['account_not_found', 'nothing_to_extend'],
  servedBy: ACCOUNT_HEALTH,
});

// Buyers can say it doesn't work (issue 33); staff confirm.
const ACCOUNT_REPORTS = 'core/src/flows/account-reports.flow.ts';

export const reportProblem = declare({
  operationId: 'reportProblem',
  method: 'post',
  path: '/api/subscribe/reportproblem',
  access: 'user',
  tag: 'panel',
  summary: "Say that an active subscription doesn't work; answers self-help at once",
  description:
    "The holder only (another user's subscription answers 404 `subscription_not_found`); 409 `subscription_not_active`, or `problem_already_reported` within an hour of the buyer's last report of it. The account turns attention; reports of ACCOUNT_REPORTS_TO_BREAK different buyers within an hour break it (subject to the platform's circuit breaker). Audited as `account.problem.report`.",
  body: problemReports.reportProblemBody,
  answer: problemReports.reportProblemAnswer,
  errors: ['subscription_not_found', 'subscription_not_active', 'problem_already_reported'],
  servedBy: ACCOUNT_REPORTS,
});

export const confirmReport = declare({
  operationId: 'confirmReport',
  method: 'post',
  path: '/api/subscribe/confirmreport',
  access: 'staff',
  tag: 'staff',
  summary: "Confirm a buyer's problem report: the account turns broken and its buyers move",
  description: '404 `report_not_found`. Staff decide, so the circuit breaker does not hold it. Audited as `account.problem.confirm`.',
  body: problemReports.confirmReportBody,
  answer: problemReports.confirmReportAnswer,
  errors: ['report_not_found'],
  servedBy: ACCOUNT_REPORTS,
});
