import { toMajorUnits, type LedgerEventView, type RefundQuote, type RefundResult, type RefundView } from '@subshare/core';
import type { refunds } from '@subshare/core/wire';

/** A refund as staff see it: amounts in major units of the order's currency. */
export function serializeRefund(refund: RefundView): refunds.RefundAnswer {
  return {
    id: refund.id,
    orderId: refund.orderId,
    source: refund.source,
    status: refund.status,
    provider: refund.provider,
    currencyCode: refund.amount.currency,
    amount: toMajorUnits(refund.amount),
    credit: toMajorUnits(refund.credit),
    fee: toMajorUnits(refund.fee),
    providerRefundId: refund.providerRefundId,
    manualReference: refund.manualReference,
    reason: refund.reason,
    overrideWindow: refund.overrideWindow,
    createdDate: refund.createdAt.toISOString(),
  };
}

export function serializeRefundQuote(quote: RefundQuote): refunds.RefundQuoteAnswer {
  const { order, terms, policy } = quote;
  return {
    orderId: order.id,
    state: order.state,
    refundable: quote.notRefundable === undefined,
    reason: quote.notRefundable ?? null,
    provider: quote.payment?.provider ?? null,
    // A refund wholly given back as credit needs no transfer by hand.
    manual: (quote.payment?.manual ?? false) && quote.terms.refund.amount > quote.creditBack.amount,
    currencyCode: terms.paid.currency,
    paid: toMajorUnits(terms.paid),
    fee: toMajorUnits(terms.fee),
    refund: toMajorUnits(terms.refund),
    refundAsCredit: toMajorUnits(quote.creditBack),
    feePercent: policy.feePercent,
    feeFixed: toMajorUnits({ amount: policy.feeFixedMinor[terms.paid.currency], currency: terms.paid.currency }),
    windowHours: policy.windowHours,
    paidDate: order.paidAt ? order.paidAt.toISOString() : null,
    windowEndsDate: terms.windowEndsAt ? terms.windowEndsAt.toISOString() : null,
    insideWindow: terms.insideWindow,
    refunds: quote.refunds.map(serializeRefund),
    access: quote.standing.access,
    refunded: toMajorUnits({ amount: quote.standing.refunded, currency: terms.paid.currency }),
    chargedBack: toMajorUnits({ amount: quote.standing.chargedBack, currency: terms.paid.currency }),
    ledger: quote.ledger.map(serializeMoneyEvent),
  };
}

/** A money event as staff see it (amounts in major units). */
export function serializeMoneyEvent(event: LedgerEventView): refunds.MoneyEventAnswer {
  return {
    id: event.id,
    orderId: event.orderId,
    provider: event.provider,
    eventId: event.eventKey,
    eventType: event.eventType,
    kind: event.kind,
    providerId: event.subject,
    status: event.status,
    currencyCode: event.amount?.currency ?? null,
    amount: event.amount ? toMajorUnits(event.amount) : null,
    recordedDate: event.recordedAt.toISOString(),
    appliedDate: event.appliedAt ? event.appliedAt.toISOString() : null,
    waitingFor: event.waitingFor,
    effect: event.effect,
  };
}

export function serializeRefundResult(result: RefundResult): refunds.RefundResultAnswer {
  return { orderId: result.orderId, state: result.state, refund: serializeRefund(result.refund) };
}
