import {
  toMajorUnits,
  type ActivationResult,
  type Money,
  type PanelItem,
  type RenewalState,
  type ReplacementResult,
  type StaffRenewal,
  type StaffRenewals,
  type UserPanel,
} from '@subshare/core';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The spec's "Subscription/order item" (section 3); dates as ISO 8601. */
export function serializePanelItem(item: PanelItem) {
  return {
    orderId: item.orderId,
    subscribeId: item.subscribeId,
    type: item.type,
    duration: item.duration,
    platformId: item.platformId,
    platformImgFileName: item.platformImgFileName,
    platformColorOne: item.platformColorOne,
    platformName: item.platformName,
    platformType: item.platformType,
    platformSlotCount: item.platformSlotCount,
    slotId: item.slotId,
    haveInvitation: item.haveInvitation,
    invitationEmail: item.invitationEmail,
    email: item.email,
    password: item.password,
    startTime: iso(item.startTime),
    endTime: iso(item.endTime),
    replacedFrom: item.replacedFrom,
    knownSubscribeId: item.knownSubscribeId,
    health: item.health,
    autoRenew: item.autoRenew && serializeRenewalState(item.autoRenew),
  };
}

/** A subscription's renewal on the wire: amounts in major units, as every price. */
export function serializeRenewalState(state: RenewalState) {
  return {
    mode: state.mode,
    enabled: state.enabled,
    canEnable: state.canEnable,
    status: state.status,
    ...chargeFigures(state),
  };
}

/** The next charge as both the buyer's and staff's renewal views answer it: its date, the amount in major units, the card. */
function chargeFigures(charge: Pick<RenewalState, 'nextChargeAt' | 'amount' | 'cardLast4'>) {
  return {
    nextChargeAt: iso(charge.nextChargeAt),
    amount: charge.amount ? toMajorUnits(charge.amount) : null,
    currencyCode: charge.amount?.currency ?? null,
    cardLast4: charge.cardLast4,
  };
}

/** One upcoming or failed renewal as staff see it. */
export function serializeStaffRenewal(entry: StaffRenewal) {
  return {
    subscriptionId: entry.subscriptionId,
    userId: entry.userId,
    endsAt: entry.endsAt.toISOString(),
    mode: entry.mode,
    enabled: entry.enabled,
    status: entry.status,
    attempts: entry.attempts,
    ...chargeFigures(entry),
    declineCode: entry.declineCode,
  };
}

/** Expected renewal revenue per currency, in major units. */
export function serializeExpectedRevenue(expected: Money[]) {
  return expected.map((amount) => ({ amount: toMajorUnits(amount), currencyCode: amount.currency }));
}

/** Staff's view of upcoming and failed renewals. */
export function serializeStaffRenewals(renewals: StaffRenewals) {
  return {
    expected: serializeExpectedRevenue(renewals.expected),
    upcoming: renewals.upcoming.map(serializeStaffRenewal),
    failed: renewals.failed.map(serializeStaffRenewal),
  };
}

/** The spec's "Panel response": user, subscribers (active), subscribersNotCompleted; beyond it, subscribersRefunded. */
export function serializePanel(panel: UserPanel) {
  return {
    user: panel.user,
    subscribers: panel.subscribers.map(serializePanelItem),
    subscribersNotCompleted: panel.subscribersNotCompleted.map(serializePanelItem),
    subscribersRefunded: panel.subscribersRefunded.map(serializePanelItem),
  };
}

/** activatesubscribe's answer: the order, now completed, and the slots it got. */
export function serializeActivation(result: ActivationResult) {
  return {
    orderId: result.orderId,
    // Set whenever the order exists; activateNow answers 404 otherwise.
    state: result.state!,
    subscribers: result.subscriptions.map((slot) => ({
      subscribeId: slot.subscriptionId,
      platformAccountId: slot.platformAccountId,
      slotId: slot.slot,
      platformSlotCount: slot.accountSlotsCount,
      startTime: slot.startsAt.toISOString(),
      endTime: slot.endsAt.toISOString(),
    })),
  };
}

/** replacesubscribe's answer: the new subscription, which replaced `replacedFrom`. */
export function serializeReplacement(result: ReplacementResult) {
  return {
    subscribeId: result.subscription.id,
    replacedFrom: result.replacedFrom.id,
    platformAccountId: result.subscription.platformAccountId,
    slotId: result.subscription.slot,
    platformSlotCount: result.accountSlotsCount,
    startTime: result.subscription.startsAt.toISOString(),
    endTime: result.subscription.endsAt.toISOString(),
  };
}
