import { ContainerModule } from 'inversify';
import { RenewalsService } from './renewals.service.js';

export const renewalsModule = new ContainerModule(({ bind }) => {
  bind(RenewalsService).toSelf().inSingletonScope();
});
