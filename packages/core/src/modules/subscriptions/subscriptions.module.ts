import { ContainerModule } from 'inversify';
import { HealthMoveRepository } from './health-move.repository.js';
import { HealthMovesService } from './health-moves.service.js';
import { SubscriptionRepository } from './subscription.repository.js';
import { SubscriptionsService } from './subscriptions.service.js';

export const subscriptionsModule = new ContainerModule(({ bind }) => {
  bind(SubscriptionRepository).toSelf().inSingletonScope();
  bind(HealthMoveRepository).toSelf().inSingletonScope();
  bind(SubscriptionsService).toSelf().inSingletonScope();
  bind(HealthMovesService).toSelf().inSingletonScope();
});
