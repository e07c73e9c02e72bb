import { ContainerModule } from 'inversify';
import { CreditService } from './credit.service.js';

export const creditModule = new ContainerModule(({ bind }) => {
  bind(CreditService).toSelf().inSingletonScope();
});
