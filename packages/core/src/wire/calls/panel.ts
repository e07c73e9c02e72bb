/** The buyer's panel: the panel itself, the family-invitation e-mail, and the verification fetch (flows/verification-mail.flow.ts). */
import { declare } from '../declare.js';
import * as panel from '../panel.js';
import * as referrals from '../referrals.js';

const MAILBOX_NOTE =
  'The slot holder while the subscription is active, or staff for any subscription (audited as `mailbox.read`). Polled by the panel: ' +
  'rate limited per user (429 `too_many_mailbox_reads`), 409 `wrong_platform_type` or `no_mailbox`, 503 when the mailbox cannot be read.';
const MAILBOX_ERRORS = [
  'subscription_not_found',
  'subscription_not_active',
  'forbidden',
  'wrong_platform_type',
  'no_mailbox',
  'mailbox_reading_off',
  'mailbox_unavailable',
  'too_many_mailbox_reads',
] as const;

export const getUserPanel = declare({
  operationId: 'getUserPanel',
  method: 'get',
  path: '/api/user/getuserpanel',
  access: 'user',
  tag: 'panel',
  summary: 'Profile, active subscriptions with credentials, incomplete orders (own; staff: anyone, audited)',
  description: "403 for another user's panel unless staff; staff reading another user's credentials is audited as `credentials.reveal`.",
  query: panel.panelQuery,
  answer: panel.panelAnswer,
  errors: ['forbidden', 'user_not_found'],
  servedBy: 'core/src/flows/user-panel.flow.ts',
});

export const setInvitationEmail = declare({
  operationId: 'setInvitationEmail',
  method: 'post',
  path: '/api/order/setinvatiotaionemail',
  access: 'user',
  tag: 'panel',
  summary: 'Your platform login e-mail for a family invitation (once, then read-only)',
  description: 'The same e-mail again answers it; another one is 409 `invitation_email_set`.',
  body: panel.invitationEmailBody,
  answer: panel.invitationEmailAnswer,
  errors: ['order_not_found', 'invitation_email_set', 'invitation_not_needed', 'order_closed'],
  servedBy: 'core/src/modules/orders/orders.service.ts',
});

export const getHouseholdLink = declare({
  operationId: 'getHouseholdLink',
  method: 'get',
  path: '/api/email/getnvlink',
  access: 'user',
  tag: 'panel',
  summary: "The newest household / travel verification link in the account's mailbox (video platforms)",
  description: MAILBOX_NOTE,
  query: panel.verificationMailQuery,
  answer: panel.householdLinkAnswer,
  errors: MAILBOX_ERRORS,
  servedBy: 'core/src/flows/verification-mail.flow.ts',
});

export const getLoginCode = declare({
  operationId: 'getLoginCode',
  method: 'get',
  path: '/api/email/getchgptcode',
  access: 'user',
  tag: 'panel',
  summary: "The newest six-digit login code in the account's mailbox (AI-chat platforms)",
  description: MAILBOX_NOTE,
  query: panel.verificationMailQuery,
  answer: panel.loginCodeAnswer,
  errors: MAILBOX_ERRORS,
  servedBy: 'core/src/flows/verification-mail.flow.ts',
});

export const getReferral = declare({
  operationId: 'getReferral',
  method: 'get',
  path: '/api/user/referral',
  access: 'user',
  tag: 'panel',
  summary: 'Your referral code and link, the credit referrals earned you, and how many friends came and counted',
  description:
    'The code is made at the first read. A friend who signs up by the link (`/?ref=CODE`, any sign-up way) gets a first-order discount; ' +
    'once their first payment is past the refund window and was not refunded, disputed or charged back, you earn a share of it as credit in its currency ' +
    '(not for your own address or card, up to a monthly number of rewards). `credit`: what referrals earned, per currency, in major units.',
  answer: referrals.referralAnswer,
  errors: ['user_not_found'],
  servedBy: 'core/src/flows/referral.flow.ts',
});
