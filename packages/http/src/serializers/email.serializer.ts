import type { OutboxEmail, OutboxEmailSummary, OutboxPage } from '@subshare/core';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** An outbox e-mail without its bodies; dates as ISO 8601. */
export function serializeOutboxSummary(email: OutboxEmailSummary) {
  return {
    id: email.id,
    kind: email.kind,
    kindName: email.kindName,
    userId: email.userId,
    to: email.to,
    languageId: email.languageId,
    subject: email.subject,
    status: email.status,
    attempts: email.attempts,
    lastError: email.lastError,
    idempotencyKey: email.idempotencyKey,
    messageId: email.messageId,
    createdAt: email.createdAt.toISOString(),
    sentAt: iso(email.sentAt),
    lastAttemptAt: iso(email.lastAttemptAt),
  };
}

export function serializeOutboxPage(page: OutboxPage) {
  return { items: page.items.map(serializeOutboxSummary), count: page.count, pages: page.pages, page: page.page, limit: page.limit };
}

/** One outbox e-mail with its bodies (a code already masked by core). */
export function serializeOutboxEmail(email: OutboxEmail) {
  return { ...serializeOutboxSummary(email), html: email.html, text: email.text };
}
