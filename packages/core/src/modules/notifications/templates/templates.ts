/**
 * The template registry: every e-mail kind and the file that writes it (kinds/, one a kind, its
 * English and Korean side by side). A kind's file arranges parts (parts.ts: blocks, shared rows
 * and buttons; words.ts: shared words); layout.ts renders them to HTML and plain text around the
 * one header and footer. Every rendering is kept as a reviewed snapshot in
 * test/snapshots/emails/ (`npm run snapshots:emails`).
 */
import { ValidationError } from '../../../shared/errors.js';
import type { EmailDataByKind, EmailKind, EmailLanguageId } from '../email-kinds.js';
import { EMAIL_KIND } from '../email-kinds.js';
import { accountBroken } from './kinds/account-broken.js';
import { appleTvActive } from './kinds/apple-tv-active.js';
import { autoRenewal } from './kinds/auto-renewal.js';
import { expiryReminder } from './kinds/expiry-reminder.js';
import { platformIncident } from './kinds/platform-incident.js';
import { purchasedActiveSubscribe } from './kinds/purchased-active-subscribe.js';
import { purchasedNotActiveSubscribe } from './kinds/purchased-not-active-subscribe.js';
import { referralReward } from './kinds/referral-reward.js';
import { refunded } from './kinds/refunded.js';
import { renewalProviderError } from './kinds/renewal-provider-error.js';
import { subscribeActive } from './kinds/subscribe-active.js';
import { subscriptionEnded } from './kinds/subscription-ended.js';
import { subscriptionReplaced } from './kinds/subscription-replaced.js';
import { trustPilotInvite } from './kinds/trust-pilot-invite.js';
import { verificationCode } from './kinds/verification-code.js';
import { welcome } from './kinds/welcome.js';
import { renderLayout, type RenderedEmail } from './layout.js';
import type { EmailTemplate } from './parts.js';
import { tools, type RenderContext } from './tools.js';

export { formatDate } from './dates.js';
export type { RenderContext } from './tools.js';

/** Which kinds carry a one-time code is decided in email-kinds.ts (EMAIL_KIND_CARRIES_CODE), not here. */
const TEMPLATES: { [K in EmailKind]: EmailTemplate<K> } = {
  [EMAIL_KIND.welcome]: welcome,
  [EMAIL_KIND.purchasedActiveSubscribe]: purchasedActiveSubscribe,
  [EMAIL_KIND.purchasedNotActiveSubscribe]: purchasedNotActiveSubscribe,
  [EMAIL_KIND.subscribeActive]: subscribeActive,
  [EMAIL_KIND.trustPilotInvite]: trustPilotInvite,
  [EMAIL_KIND.verificationCode]: verificationCode,
  [EMAIL_KIND.appleTVActive]: appleTvActive,
  [EMAIL_KIND.expiryReminder]: expiryReminder,
  [EMAIL_KIND.subscriptionEnded]: subscriptionEnded,
  [EMAIL_KIND.subscriptionReplaced]: subscriptionReplaced,
  [EMAIL_KIND.refunded]: refunded,
  [EMAIL_KIND.accountBroken]: accountBroken,
  [EMAIL_KIND.autoRenewal]: autoRenewal,
  [EMAIL_KIND.platformIncident]: platformIncident,
  [EMAIL_KIND.renewalProviderError]: renewalProviderError,
  [EMAIL_KIND.referralReward]: referralReward,
};

/** Renders one e-mail: subject, HTML and text, in its language, with the business details in the footer. */
export function renderEmail<K extends EmailKind>(
  message: { kind: K; languageId: EmailLanguageId; data: EmailDataByKind[K]; userId?: number | null },
  ctx: RenderContext,
): RenderedEmail {
  const template = TEMPLATES[message.kind] as EmailTemplate<K> | undefined;
  if (!template) throw new ValidationError('This e-mail kind does not exist.', { kind: 'is not a known e-mail kind' });
  if (message.languageId !== 1 && message.languageId !== 2) throw new ValidationError('The e-mail language is invalid.', { languageId: 'must be 1 or 2' });
  if (typeof message.data !== 'object' || message.data === null) throw new ValidationError('The e-mail data is invalid.', { data: 'is required' });
  const content = template.render(message.data, tools(message.languageId, ctx, message.userId));
  return renderLayout(content, { ...ctx, languageId: message.languageId });
}

export const TEMPLATE_KINDS = Object.keys(TEMPLATES).map(Number) as EmailKind[];
