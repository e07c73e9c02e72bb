import type { ActivationResult, PanelItem, ReplacementResult, UserPanel } from '@subshare/core';

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
    health: item.health,
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
