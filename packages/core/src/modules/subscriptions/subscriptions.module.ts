import { ContainerModule } from 'inversify';
import { HealthMoveRepository } from './health-move.repository.js';
import { HealthMovesService } from './health-moves.service.js';
import { SubscriptionRepository } from './subscription.repository.js';
import { SubscriptionsService } from './subscriptions.service.js';

export const SUBSCRIPTIONS = {
  Service: Symbol.for('subshare.subscriptions.SubscriptionsService'),
  HealthMoves: Symbol.for('subshare.subscriptions.HealthMovesService'),
} as const;

export const subscriptionsModule = new ContainerModule(({ bind }) => {
  bind(SubscriptionRepository).toSelf().inSingletonScope();
  bind(HealthMoveRepository).toSelf().inSingletonScope();
  bind(SubscriptionsService).toSelf().inSingletonScope();
  bind(SUBSCRIPTIONS.Service).toService(SubscriptionsService);
  bind(HealthMovesService).toSelf().inSingletonScope();
  bind(SUBSCRIPTIONS.HealthMoves).toService(HealthMovesService);
});
