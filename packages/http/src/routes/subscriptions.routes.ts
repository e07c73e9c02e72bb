/**
 * Staff work on subscriptions (spec section 6, under the spec's paths): activate a waiting order
 * now, move a subscription off a broken account, add a platform account, make and list the
 * mailboxes behind account logins. Every change and every password shown is audited in core.
 */
import type { Container } from 'inversify';
import { ACCOUNTS, FLOWS, ValidationError, type AccountHealthFlow, type AccountsService, type ActivationFlow, type ReplacementFlow } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { serializeAccountHealth, serializeSetHealth } from '../serializers/account-health.serializer.js';
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
  const health = container.get<AccountHealthFlow>(FLOWS.AccountHealth);
  const { subscriptions: schemas, accountHealth } = wire;
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
    // Account health (issue 29): the platforms' alert mails mark accounts broken; staff see and repair.
    call({
      method: 'get',
      path: '/api/subscribe/accounthealth',
      access: 'staff',
      tag: 'staff',
      summary: 'Accounts by health, broken first: since when, why, their buyers and where they went',
      description: '`platformId` narrows to one platform. `cause` is the platform mail (subject, sender, time; never a code or link) or staff reason.',
      query: accountHealth.accountHealthQuery,
      answer: accountHealth.accountHealthAnswer,
      handler: async ({ query }) => (await health.list(query.platformId)).map(serializeAccountHealth),
    }),
    call({
      method: 'post',
      path: '/api/subscribe/setaccounthealth',
      access: 'staff',
      tag: 'staff',
      summary: "Set an account's health by hand (ok after a repair), with a reason",
      description: '404 `account_not_found`. Broken moves its buyers; ok leaves buyers still waiting on the account. Audited as `account.health.set`.',
      body: accountHealth.setAccountHealthBody,
      answer: accountHealth.setAccountHealthAnswer,
      handler: async ({ body, req, res }) => serializeSetHealth(await health.setHealth(auditActor(req, res), body)),
    }),
    call({
      method: 'post',
      path: '/api/subscribe/extendlosttime',
      access: 'staff',
      tag: 'staff',
      summary: 'Give the buyers moved off a broken account the time they lost',
      description: '404 `account_not_found`, 409 `nothing_to_extend`. Once per moved buyer; audited as `account.health.extend`.',
      body: accountHealth.extendLostTimeBody,
      answer: accountHealth.extendLostTimeAnswer,
      handler: async ({ body, req, res }) => {
        const result = await health.extendLostTime(auditActor(req, res), body.accountId);
        return {
          extended: result.extended.map((entry) => ({ subscriptionId: entry.subscriptionId, minutes: Math.ceil(entry.ms / 60_000) })),
          skipped: result.skipped,
        };
      },
    }),
  ];
}
