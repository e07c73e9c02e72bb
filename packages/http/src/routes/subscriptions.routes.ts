/**
 * Staff work on subscriptions (spec section 6, under the spec's paths): activate a waiting order
 * now, move a subscription off a broken account, add a platform account, make and list the
 * mailboxes behind account logins. Every change and every password shown is audited in core.
 */
import type { Container } from 'inversify';
import { AccountHealthFlow, AccountReportsFlow, AccountsService, ActivationFlow, ReplacementFlow } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import type * as wire from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { serializeAccountHealth, serializeSetHealth } from '../serializers/account-health.serializer.js';
import { serializeSelfHelp } from '../serializers/problem-report.serializer.js';
import { serializeAccount, serializeMailbox } from '../serializers/account.serializer.js';
import { serializeActivation, serializeReplacement } from '../serializers/subscription.serializer.js';
import { bind, type Call } from './call.js';

/** The platform of a mailbox query: `plaformId` (the spec's spelling) or `platformId` (the schema holds them equal). */
const platformIdOf = (query: wire.subscriptions.MailboxQuery): number | undefined => query.plaformId ?? query.platformId;

export function subscriptionsCalls(container: Container): Call[] {
  const activation = container.get(ActivationFlow);
  const replacement = container.get(ReplacementFlow);
  const accounts = container.get(AccountsService);
  const health = container.get(AccountHealthFlow);
  const reports = container.get(AccountReportsFlow);
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
    // Account health (issue 29): the platforms' alert mails mark accounts broken; staff see and repair.
    bind(calls.subscriptions.getAccountHealth, async ({ query }) => {
      const entries = await health.list(query.platformId, query.languageId);
      const voices = await reports.staffView(entries);
      return entries.map((entry) => serializeAccountHealth(entry, voices.get(entry.id)));
    }),
    bind(calls.subscriptions.setAccountHealth, async ({ body, req, res }) => serializeSetHealth(await health.setHealth(auditActor(req, res), body))),
    bind(calls.subscriptions.extendLostTime, async ({ body, req, res }) => {
      const result = await health.extendLostTime(auditActor(req, res), body.accountId);
      return {
        extended: result.extended.map((entry) => ({ subscriptionId: entry.subscriptionId, minutes: Math.ceil(entry.ms / 60_000) })),
        skipped: result.skipped,
      };
    }),
    // Buyers can say it doesn't work (issue 33); staff confirm.
    bind(calls.subscriptions.reportProblem, async ({ body, user, req, res }) => serializeSelfHelp(await reports.report(auditActor(req, res), user.id, body))),
    bind(calls.subscriptions.confirmReport, async ({ body, req, res }) => reports.confirm(auditActor(req, res), body)),
  ];
}
