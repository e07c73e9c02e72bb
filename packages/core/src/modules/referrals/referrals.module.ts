import { ContainerModule } from 'inversify';
import { ReferralsService } from './referrals.service.js';

export const referralsModule = new ContainerModule(({ bind }) => {
  bind(ReferralsService).toSelf().inSingletonScope();
});
