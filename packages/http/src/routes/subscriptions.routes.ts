/**
 * Staff work on subscriptions (spec section 6, under the spec's paths): activate a waiting order
 * now, move a subscription off a broken account, add a platform account, make and list the
 * mailboxes behind account logins. Every change and every password shown is audited in core.
 */
import type { Container } from 'inversify';
import { ACCOUNTS, FLOWS, ValidationError, type AccountsService, type ActivationFlow, type ReplacementFlow } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { serializeAccount, serializeMailbox } from '../serializers/account.serializer.js';
import { serializeActivation, serializeReplacement } from '../serializers/subscription.serializer.js';
import { call, type Call } from './call.js';

/** The platform of a mailbox query: `plaformId` (the spec's spelling) or `platformId`, which must agree when both are given. */
function platformIdOf(query: wire.subscriptions.MailboxQuery): number | undefined {
  if (query.plaformId !== undefined && query.platformId !== undefined && query.plaformId !== query.platformId) {
    throw new ValidationError('plaformId and platformId disagree.', { plaformId: 'differs from platformId' });
  }
  return query.plaformId ?? query.platformId;
}

export function subscriptionsCalls(container: Container): Call[] {
  const activation = container.get<ActivationFlow>(FLOWS.Activation);
  const replacement = container.get<ReplacementFlow>(FLOWS.Replacement);
  const accounts = container.get<AccountsService>(ACCOUNTS.Service);
  const { subscriptions: schemas } = wire;
  return [
    // Staff calls under /api/webhook/ (the spec's paths); JSON bodies, unlike the providers' signed webhooks.
    call({
      method: 'post',
      path: '/api/webhook/activatesubscribe',
      access: 'staff',
      tag: 'staff',
      summary: 'Activate a waiting order now (invitations included)',
      description: '404 `order_not_found`, 409 `order_not_waiting` or `no_free_slot`; audited as `order.activate`.',
      body: schemas.activateBody,
      answer: schemas.activateAnswer,
      handler: async ({ body, req, res }) => serializeActivation(await activation.activateNow(auditActor(req, res), body)),
    }),
    call({
      method: 'post',
      path: '/api/webhook/replacesubscribe',
      access: 'staff',
      tag: 'staff',
      summary: "Move a subscription to another account's free slot, same end date",
      description: '404 unknown order or subscription, 400 `order_mismatch`, 409 `subscription_not_active` or `no_free_slot` (nothing changes then).',
      body: schemas.replaceBody,
      answer: schemas.replaceAnswer,
      handler: async ({ body, req, res }) => serializeReplacement(await replacement.replace(auditActor(req, res), body)),
    }),
    call({
      method: 'post',
      path: '/api/subscribe/insert',
      access: 'admin',
      tag: 'staff',
      summary: 'Create a platform account with its slots',
      description: 'The password is stored encrypted and never answered; new capacity lets waiting orders of the platform be activated.',
      body: schemas.accountBody,
      answer: schemas.accountAnswer,
      handler: async ({ body, req, res }) => serializeAccount(await accounts.createAccount(auditActor(req, res), body)),
    }),
    call({
      method: 'get',
      path: '/api/subscribe/createbemail',
      access: 'admin',
      tag: 'staff',
      summary: 'Generate a mailbox on MAILBOX_DOMAIN',
      description: 'Its generated password is answered this once; without a platform the mailbox is offered for every platform.',
      query: schemas.mailboxQuery,
      answer: schemas.mailbox,
      handler: async ({ query, req, res }) => serializeMailbox(await accounts.createMailbox(auditActor(req, res), { platformId: platformIdOf(query) })),
    }),
    call({
      method: 'get',
      path: '/api/subscribe/getbemails',
      access: 'staff',
      tag: 'staff',
      summary: "A platform's mailboxes (audited reveal)",
      description: "The platform's and the unassigned mailboxes, passwords included; `plaformId` (or `platformId`) is required.",
      query: schemas.mailboxQuery,
      answer: schemas.mailboxesAnswer,
      handler: async ({ query, req, res }) => {
        const platformId = platformIdOf(query);
        if (platformId === undefined) throw new ValidationError('Some fields are missing or invalid.', { plaformId: 'plaformId is required' });
        return (await accounts.listMailboxes(auditActor(req, res), { platformId })).map(serializeMailbox);
      },
    }),
  ];
}
