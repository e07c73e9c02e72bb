/**
 * Automatic renewal (issue 28): the holder's switch and save-a-card page, the pages of the e-mails' one-click links
 * (cancel, pay; a GET shows a confirm page, the POST acts: renewal-link.page.ts says why), and
 * staff's view of upcoming and failed renewals. Rules live in core's RenewalSwitchFlow, RenewalLinksFlow
 * and RenewalViewsFlow.
 */
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, RenewalLinksFlow, RenewalSwitchFlow, RenewalViewsFlow } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { formToken, sendLinkPage } from '../handlers/renewal-link.page.js';
import { auditActorOf } from '../middleware/auth.js';
import { serializeRenewalState, serializeStaffRenewals } from '../serializers/subscription.serializer.js';
import { requestedLanguage } from '../seo/index.js';
import { bind, type Call } from './call.js';

export function renewalsCalls(container: Container): Call[] {
  const renewalSwitch = container.get(RenewalSwitchFlow);
  const links = container.get(RenewalLinksFlow);
  const views = container.get(RenewalViewsFlow);
  const config = container.get<AppConfig>(TOKENS.Config);
  const { cancelRenewalPage, cancelRenewalByLink, payRenewalPage, payRenewalByLink } = calls.renewals;
  return [
    bind(calls.renewals.setAutoRenew, async ({ user, body, context }) =>
      serializeRenewalState(await renewalSwitch.setAutoRenew(user, body, auditActorOf(user, context))),
    ),
    bind(calls.renewals.saveRenewalCard, ({ user, body }) => renewalSwitch.saveCardPage(user, body)),
    bind(calls.renewals.renewalCardSaved, async ({ user, body, context }) =>
      serializeRenewalState(await renewalSwitch.cardSaved(user, body, auditActorOf(user, context))),
    ),
    bind(cancelRenewalPage, async ({ query, req, res }) =>
      sendLinkPage(req, res, await links.cancelLinkPage(query.token, requestedLanguage(req, config)), cancelRenewalPage.path),
    ),
    bind(cancelRenewalByLink, async ({ req, res, context }) =>
      sendLinkPage(req, res, await links.cancelByLink(formToken(req), context, requestedLanguage(req, config)), cancelRenewalByLink.path),
    ),
    bind(payRenewalPage, async ({ query, req, res }) =>
      sendLinkPage(req, res, await links.payLinkPage(query.token, requestedLanguage(req, config)), payRenewalPage.path),
    ),
    bind(payRenewalByLink, async ({ req, res, context }) =>
      sendLinkPage(req, res, await links.payByLink(formToken(req), context, requestedLanguage(req, config)), payRenewalByLink.path),
    ),
    bind(calls.renewals.getStaffRenewals, async ({ query }) => serializeStaffRenewals(await views.forStaff({ userId: query.userId }))),
  ];
}
