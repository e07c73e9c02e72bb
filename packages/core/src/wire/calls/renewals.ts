/**
 * Automatic renewal (issue 28): the holder's switch, the pages of the e-mails' one-click links
 * (cancel, pay; a GET shows a confirm page, the POST acts: http's renewal-link.page.ts says why),
 * and staff's view of upcoming and failed renewals.
 */
import { CARD_RETURN_PARAMS, PAGES, pagePattern } from '../../pages/index.js';
import { declare } from '../declare.js';
import * as renewals from '../renewals.js';

const SWITCH = 'core/src/flows/renewal-switch.flow.ts';
const LINKS = 'core/src/flows/renewal-links.flow.ts';
const VIEWS = 'core/src/flows/renewal-views.flow.ts';
const CANCEL = '/api/subscribe/autorenew/cancel';
const PAY = '/api/subscribe/autorenew/pay';
const LINK_ERRORS = ['renewal_link_invalid', 'renewal_link_unusable'] as const;
const linkPage = (description: string) => ({ status: 200, contentType: 'text/html', description });
const FORM = {
  types: ['application/x-www-form-urlencoded'],
  signature: "`token` in the body: signed by the shop (single-purpose, expiring), as in the e-mail's link.",
} as const;

export const setAutoRenew = declare({
  operationId: 'setAutoRenew',
  method: 'post',
  path: '/api/subscribe/autorenew',
  access: 'user',
  tag: 'panel',
  extra: true,
  summary: 'Turn automatic renewal of your subscription on or off',
  description:
    'The holder only (404 `subscription_not_found` otherwise). Audited as `subscription.autorenew`. Off cancels a charge not yet made and lets a held slot go; ' +
    'on needs a saved card, or an opt-in payment whose card the next renewal pass learns (409 `no_saved_card`); 409 `autorenew_unavailable` for a subscription paid with a method Stripe cannot charge (`mode: link`) or without Stripe; ' +
    '409 `renewal_in_progress` while a charge is being made.',
  body: renewals.autoRenewBody,
  answer: renewals.renewalState,
  errors: ['subscription_not_found', 'no_saved_card', 'autorenew_unavailable', 'renewal_in_progress'],
  servedBy: SWITCH,
});

export const saveRenewalCard = declare({
  operationId: 'saveRenewalCard',
  method: 'post',
  path: '/api/subscribe/autorenew/card',
  access: 'user',
  tag: 'panel',
  extra: true,
  summary: 'Save a card to turn automatic renewal on (a subscription paid by card without the opt-in)',
  description:
    "The holder only (404 `subscription_not_found` otherwise). Answers the address of Stripe's setup-mode Checkout on the buyer's Stripe Customer; " +
    'once the card is saved there, renewal is on (when the buyer comes back to the panel, which calls `renewalCardSaved` with the returned session, or at the next renewal pass), audited as `subscription.autorenew`. ' +
    '409 `card_already_saved` when a card is saved for it already (use the switch); 409 `autorenew_unavailable` without Stripe or for a subscription paid with a method Stripe cannot charge.',
  body: renewals.saveCardBody,
  answer: renewals.saveCardAnswer,
  errors: ['subscription_not_found', 'card_already_saved', 'autorenew_unavailable', 'stripe_unavailable', 'stripe_misconfigured', 'stripe_rejected'],
  servedBy: SWITCH,
});

export const renewalCardSaved = declare({
  operationId: 'renewalCardSaved',
  method: 'post',
  path: '/api/subscribe/autorenew/card-saved',
  access: 'user',
  tag: 'panel',
  extra: true,
  summary: "Back from Stripe's card page: turn automatic renewal on with the card saved there",
  description:
    `The panel calls it when Stripe sends the buyer back (\`${pagePattern(PAGES.user)}?${CARD_RETURN_PARAMS.subscription}={subscription}&${CARD_RETURN_PARAMS.session}={CHECKOUT_SESSION_ID}\`). The holder only (404 \`subscription_not_found\` otherwise). ` +
    'Renewal is turned on only when `sessionId` is the save-a-card page this holder opened for this subscription, finished with a card, and not used before ' +
    '(409 `card_session_invalid` otherwise: nothing changes). Audited as `subscription.autorenew` (`via: card_saved`).',
  body: renewals.cardSavedBody,
  answer: renewals.renewalState,
  errors: ['subscription_not_found', 'card_session_invalid', 'renewal_in_progress'],
  servedBy: SWITCH,
});

export const cancelRenewalPage = declare({
  operationId: 'cancelRenewalPage',
  method: 'get',
  path: CANCEL,
  access: 'public',
  tag: 'pages',
  extra: true,
  summary: "The reminder e-mail's cancel link: a page asking to confirm",
  description:
    "Changes nothing (link prefetchers GET every link); its button POSTs the token. The shop's page (its header and footer), in the order's language as the e-mail is, " +
    "naming the platform, the period, the amount and the end date as the e-mail writes them. 404 page for a bad or expired token, in the visitor's language.",
  query: renewals.linkQuery,
  answer: linkPage('The confirm page.'),
  errors: [...LINK_ERRORS],
  servedBy: LINKS,
});

export const cancelRenewalByLink = declare({
  operationId: 'cancelRenewalByLink',
  method: 'post',
  path: CANCEL,
  access: 'public',
  tag: 'pages',
  extra: true,
  rawBody: FORM,
  summary: "The cancel page's button: automatic renewal off (audited, the buyer as actor)",
  answer: linkPage('Says it is cancelled (404 page for a bad or expired token).'),
  errors: [...LINK_ERRORS, 'renewal_in_progress'],
  servedBy: LINKS,
});

export const payRenewalPage = declare({
  operationId: 'payRenewalPage',
  method: 'get',
  path: PAY,
  access: 'public',
  tag: 'pages',
  extra: true,
  summary: "A renewal e-mail's payment link: a page with one button",
  description:
    "Changes nothing; its button POSTs the token. The shop's page in the order's language: the platform, the period, the end date, and what will be charged, said above the button.",
  query: renewals.linkQuery,
  answer: linkPage('The page with the pay button.'),
  errors: [...LINK_ERRORS],
  servedBy: LINKS,
});

export const payRenewalByLink = declare({
  operationId: 'payRenewalByLink',
  method: 'post',
  path: PAY,
  access: 'public',
  tag: 'pages',
  extra: true,
  rawBody: FORM,
  summary: "The payment page's button: the period's renewal order and its checkout",
  description: 'A 303 to the provider of the method the subscription was bought with; paid, the order extends the same subscription on its slot.',
  answer: { status: 303, description: "A redirect to the provider's checkout page." },
  errors: [...LINK_ERRORS],
  servedBy: LINKS,
});

export const getStaffRenewals = declare({
  operationId: 'getStaffRenewals',
  method: 'get',
  path: '/api/admin/renewals',
  access: 'staff',
  tag: 'staff',
  extra: true,
  summary: 'Upcoming renewals (30 days, expected revenue) and failed renewals, optionally of one user',
  query: renewals.staffRenewalsQuery,
  answer: renewals.staffRenewalsAnswer,
  errors: [],
  servedBy: VIEWS,
});
