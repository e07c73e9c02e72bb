import { ContainerModule } from 'inversify';
import { RenewalsService } from './renewals.service.js';
import { RENEWALS } from './tokens.js';

export const renewalsModule = new ContainerModule(({ bind }) => {
  bind(RenewalsService).toSelf().inSingletonScope();
  bind(RENEWALS.Service).toService(RenewalsService);
});
