// The subscriptions module's public face: other modules, flows, http, worker and cli import only this.
export { subscriptionsModule } from './subscriptions.module.js';
export { SubscriptionsService, type SubscriptionView, type SlotRequest, type ClaimedSlot, type SlotOccupancy } from './subscriptions.service.js';
export { HealthMovesService, type HealthMoveView } from './health-moves.service.js';
export type { SubscriptionStatus } from './models/subscription.model.js';
export { SUBSCRIPTION_QUEUES, type ActivateWaitingJobData } from './queues.js';
