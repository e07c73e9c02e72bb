import { ContainerModule } from 'inversify';
import { SubscriptionRepository } from './subscription.repository.js';
import { SubscriptionsService } from './subscriptions.service.js';

export const SUBSCRIPTIONS = {
  Service: Symbol.for('subshare.subscriptions.SubscriptionsService'),
} as const;

export const subscriptionsModule = new ContainerModule(({ bind }) => {
  bind(SubscriptionRepository).toSelf().inSingletonScope();
  bind(SubscriptionsService).toSelf().inSingletonScope();
  bind(SUBSCRIPTIONS.Service).toService(SubscriptionsService);
});
