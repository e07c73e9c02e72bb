import { ContainerModule } from 'inversify';
import { OrderRepository } from './order.repository.js';
import { OrdersService } from './orders.service.js';

export const ordersModule = new ContainerModule(({ bind }) => {
  bind(OrderRepository).toSelf().inSingletonScope();
  bind(OrdersService).toSelf().inSingletonScope();
});
