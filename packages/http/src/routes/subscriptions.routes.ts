/**
 * Staff work on subscriptions (spec section 6, under the spec's paths): activate a waiting order
 * now, move a subscription off a broken account, add a platform account, make and list the
 * mailboxes behind account logins. Every change and every password shown is audited in core.
 */
import type { Container } from 'inversify';
import { ACCOUNTS, FLOWS, type AccountsService, type ActivationFlow, type ReplacementFlow } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import type * as wire from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { serializeAccount, serializeMailbox } from '../serializers/account.serializer.js';
import { serializeActivation, serializeReplacement } from '../serializers/subscription.serializer.js';
import { bind, type Call } from './call.js';

/** The platform of a mailbox query: `plaformId` (the spec's spelling) or `platformId` (the schema holds them equal). */
const platformIdOf = (query: wire.subscriptions.MailboxQuery): number | undefined => query.plaformId ?? query.platformId;

export function subscriptionsCalls(container: Container): Call[] {
  const activation = container.get<ActivationFlow>(FLOWS.Activation);
  const replacement = container.get<ReplacementFlow>(FLOWS.Replacement);
  const accounts = container.get<AccountsService>(ACCOUNTS.Service);
  return [
    // Staff calls under /api/webhook/ (the spec's paths); JSON bodies, unlike the providers' signed webhooks.
    bind(calls.subscriptions.activateSubscription, async ({ body, req, res }) => serializeActivation(await activation.activateNow(auditActor(req, res), body))),
    bind(calls.subscriptions.replaceSubscription, async ({ body, req, res }) => serializeReplacement(await replacement.replace(auditActor(req, res), body))),
    bind(calls.subscriptions.createAccount, async ({ body, req, res }) => serializeAccount(await accounts.createAccount(auditActor(req, res), body))),
    bind(calls.subscriptions.createMailbox, async ({ query, req, res }) =>
      serializeMailbox(await accounts.createMailbox(auditActor(req, res), { platformId: platformIdOf(query) })),
    ),
    bind(calls.subscriptions.listMailboxes, async ({ query, req, res }) =>
      (await accounts.listMailboxes(auditActor(req, res), { platformId: (query.plaformId ?? query.platformId)! })).map(serializeMailbox),
    ),
  ];
}
