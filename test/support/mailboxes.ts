/**
 * The mailbox tests' world: a configuration that reads mailboxes on a test Dovecot, accounts
 * whose mailbox exists on that Dovecot, buyers holding a slot on them, and the platforms' e-mails
 * as they look in real life (shared/reference protocols.md section 7).
 */
import { randomUUID } from 'node:crypto';
import type { Container } from 'inversify';
import { AccountsService, ActivationFlow, type AppConfig, CatalogService, OrdersService, SHIPPED_ALERT_RULES } from '@subshare/core';
import type { TestDovecot } from './dovecot.js';
import { harness } from './harness.js';
import { createPlatform, markPaidQuietly, orderInput, type TestPlatform } from './shop.js';
import type { TestUser } from './agent.js';

/**
 * How a test polls for a link or code as the panel does: a buyer's polls are rate limited (60 in
 * 10 minutes), so a wait that polled every 50 ms met 429 after 3 s on a loaded machine.
 */
export const POLL_PACE = { intervalMs: 1_000, timeoutMs: 30_000 };

/** The run's configuration, reading mailboxes on this IMAP URL. */
export function mailboxConfig(imapUrl: string, options: { idle?: boolean; timeoutSeconds?: number } = {}): AppConfig {
  const { config } = harness();
  const url = new URL(imapUrl);
  return {
    ...config,
    mailbox: {
      ...config.mailbox,
      imapUrl,
      imap: { host: url.hostname, port: Number(url.port), secure: url.protocol === 'imaps:' },
      imapIdle: options.idle ?? true,
      imapTimeoutMs: (options.timeoutSeconds ?? 5) * 1000,
    },
  };
}

export interface MailboxAccount {
  platform: TestPlatform;
  accountId: number;
  /** The account's login e-mail, which is also its mailbox's address. */
  email: string;
  mailboxPassword: string;
}

/**
 * A platform of the given type, with one account whose mailbox is a user on the test Dovecot.
 * The platform gets the shipped rules of the real platform its type stands for (video: Netflix,
 * AI chat: ChatGPT): its senders and link hosts decide whose links and codes reach buyers.
 */
export async function mailboxAccount(container: Container, dovecot: TestDovecot, category: number, slotsCount = 4): Promise<MailboxAccount> {
  const platform = await createPlatform({ category, slotsCount });
  await harness()
    .knex('platforms')
    .where({ id: platform.id })
    .update({ alert_rules: JSON.stringify(SHIPPED_ALERT_RULES[category === 8 ? 'chatgpt' : 'netflix']) });
  container.get(CatalogService).invalidate();
  const accounts = container.get(AccountsService);
  const mailbox = await accounts.createMailbox({ label: 'test' }, { platformId: platform.id });
  dovecot.addUser(mailbox.email, mailbox.password);
  const account = await accounts.createAccount(
    { label: 'test' },
    {
      platformId: platform.id,
      email: mailbox.email,
      password: `pw-${randomUUID().slice(0, 10)}`,
      slotsCount,
      femail: `fw-${randomUUID().slice(0, 8)}@example.test`,
    },
  );
  return { platform, accountId: account.id, email: mailbox.email, mailboxPassword: mailbox.password };
}

/** The buyer orders the platform and gets a slot at once (activation by the given container, on its clock); the subscription id. */
export async function subscribe(container: Container, buyer: TestUser, platform: TestPlatform): Promise<number> {
  const order = await container
    .get(OrdersService)
    .createOrder(
      { id: buyer.id, email: buyer.email, name: 'Test User', photoUrl: null, role: 0, isEmailVerified: true, languageId: 1, sessionId: randomUUID() },
      orderInput(platform),
      'EUR',
    );
  await markPaidQuietly(order.id);
  const result = await container.get(ActivationFlow).activate(order.id);
  if (!result.subscriptions[0]) throw new Error(`order ${order.id} got no slot`);
  return result.subscriptions[0].subscriptionId;
}

/** A travel / household link as Netflix builds it: a long token and more parameters. */
export function netflixLink(kind: 'travel' | 'household' = 'travel'): string {
  const token = randomUUID().replace(/-/g, '') + randomUUID().replace(/-/g, '');
  const path = kind === 'travel' ? '/account/travel/verify' : '/account/update-primary-location';
  return `https://www.netflix.com${path}?nftoken=${token}&g=${randomUUID()}&lnktrk=EVO`;
}

/** Netflix's "temporary access" e-mail: the link in the "Get Code" button, other Netflix links around it. */
export function netflixMail(to: string, link: string, receivedAt = new Date()) {
  const href = link.replace(/&/g, '&amp;');
  return {
    from: 'Netflix <info@account.netflix.com>',
    to,
    subject: 'Your Netflix temporary access code',
    receivedAt,
    html: `<html><head><style>.b{color:#e50914}</style></head><body>
<table><tr><td><a href="https://www.netflix.com/browse">Netflix</a></td></tr>
<tr><td>Hi, a request for a temporary access code was made from a TV.</td></tr>
<tr><td><a class="b" href="${href}" style="background-color:#e50914">Get Code</a></td></tr>
<tr><td>The link expires after 15 minutes.</td></tr>
<tr><td><a href="https://help.netflix.com/legal/termsofuse">Terms of Use</a> <a href="https://www.netflix.com/password?g=1">Reset password</a></td></tr>
</table></body></html>`,
    text: `Get Code\n[${link}]\n\nThe link expires after 15 minutes.`,
  };
}

/** OpenAI's login code e-mail: the code in the subject and in the HTML, a colour code that must not be taken for it. */
export function openAiMail(to: string, code: string, receivedAt = new Date()) {
  return {
    from: 'ChatGPT <noreply@tm.openai.com>',
    to,
    subject: `Your ChatGPT code is ${code}`,
    receivedAt,
    html: `<html><body style="color:#177010"><h1>ChatGPT Log-in Code</h1><p>We noticed a suspicious log-in on your account. If that was you, enter this code:</p><p style="font-size:24px">${code}</p><p>2026 OpenAI</p></body></html>`,
  };
}

/** A random six-digit code that is not 177010. */
export function randomCode(): string {
  return String(100000 + Math.floor(Math.random() * 800000));
}
