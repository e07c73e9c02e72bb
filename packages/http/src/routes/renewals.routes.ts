/**
 * Automatic renewal (issue 28): the holder's switch, the pages of the e-mails' one-click links
 * (cancel, pay; a GET shows a confirm page, the POST acts: renewal-link.page.ts says why), and
 * staff's view of upcoming and failed renewals. Rules live in core's RenewalFlow.
 */
import type { Container } from 'inversify';
import { FLOWS, type RenewalFlow } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { formToken, sendLinkPage } from '../handlers/renewal-link.page.js';
import { auditActorOf } from '../middleware/auth.js';
import { serializeRenewalState, serializeStaffRenewals } from '../serializers/subscription.serializer.js';
import { call, type Call } from './call.js';

const CANCEL = '/api/subscribe/autorenew/cancel';
const PAY = '/api/subscribe/autorenew/pay';
const linkPage = (description: string) => ({ status: 200, contentType: 'text/html', description });

export function renewalsCalls(container: Container): Call[] {
  const renewal = container.get<RenewalFlow>(FLOWS.Renewal);
  const { renewals: schemas } = wire;
  return [
    call({
      method: 'post',
      path: '/api/subscribe/autorenew',
      access: 'user',
      tag: 'panel',
      extra: true,
      summary: 'Turn automatic renewal of your subscription on or off',
      description:
        'The holder only (404 `subscription_not_found` otherwise). Audited as `subscription.autorenew`. Off cancels a charge not yet made and lets a held slot go; ' +
        'on needs a saved card (409 `no_saved_card`); 409 `renewal_in_progress` while a charge is being made.',
      body: schemas.autoRenewBody,
      answer: schemas.renewalState,
      handler: async ({ user, body, context }) => serializeRenewalState(await renewal.setAutoRenew(user, body, auditActorOf(user, context))),
    }),
    call({
      method: 'get',
      path: CANCEL,
      access: 'public',
      tag: 'panel',
      extra: true,
      summary: "The reminder e-mail's cancel link: a page asking to confirm",
      description: 'Changes nothing (link prefetchers GET every link); its button POSTs the token. 404 page for a bad or expired token.',
      query: schemas.linkQuery,
      answer: linkPage('The confirm page.'),
      handler: async ({ query, req, res }) => sendLinkPage(req, res, await renewal.cancelLinkPage(query.token), CANCEL),
    }),
    call({
      method: 'post',
      path: CANCEL,
      access: 'public',
      tag: 'panel',
      extra: true,
      stage: 'raw-body',
      rawBodyTypes: ['application/x-www-form-urlencoded'],
      summary: "The cancel page's button: automatic renewal off (audited, the buyer as actor)",
      answer: linkPage('Says it is cancelled (404 page for a bad or expired token).'),
      handler: async ({ req, res, context }) => sendLinkPage(req, res, await renewal.cancelByLink(formToken(req), context), CANCEL),
    }),
    call({
      method: 'get',
      path: PAY,
      access: 'public',
      tag: 'panel',
      extra: true,
      summary: "A renewal e-mail's payment link: a page with one button",
      description: 'Changes nothing; its button POSTs the token.',
      query: schemas.linkQuery,
      answer: linkPage('The page with the pay button.'),
      handler: async ({ query, req, res }) => sendLinkPage(req, res, await renewal.payLinkPage(query.token), PAY),
    }),
    call({
      method: 'post',
      path: PAY,
      access: 'public',
      tag: 'panel',
      extra: true,
      stage: 'raw-body',
      rawBodyTypes: ['application/x-www-form-urlencoded'],
      summary: "The payment page's button: the period's renewal order and its checkout",
      description: 'A 303 to the provider of the method the subscription was bought with; paid, the order extends the same subscription on its slot.',
      answer: { status: 303, description: "A redirect to the provider's checkout page." },
      handler: async ({ req, res, context }) => sendLinkPage(req, res, await renewal.payByLink(formToken(req), context), PAY),
    }),
    call({
      method: 'get',
      path: '/api/admin/renewals',
      access: 'staff',
      tag: 'staff',
      extra: true,
      summary: 'Upcoming renewals (30 days, expected revenue) and failed renewals, optionally of one user',
      query: schemas.staffRenewalsQuery,
      answer: schemas.staffRenewalsAnswer,
      handler: async ({ query }) => serializeStaffRenewals(await renewal.forStaff({ userId: query.userId })),
    }),
  ];
}
