// The subscriptions module's public face: other modules, flows, http, worker and cli import only this.
export { SUBSCRIPTIONS, subscriptionsModule } from './subscriptions.module.js';
export type { SubscriptionsService, SubscriptionView, SlotRequest, ClaimedSlot, SlotOccupancy } from './subscriptions.service.js';
export type { HealthMovesService, HealthMoveView } from './health-moves.service.js';
export type { SubscriptionStatus } from './models/subscription.model.js';
export { SUBSCRIPTION_QUEUES, type ActivateWaitingJobData } from './queues.js';
