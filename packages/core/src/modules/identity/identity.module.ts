import { ContainerModule } from 'inversify';
import { IdentityService } from './identity.service.js';
import { UserRepository } from './user.repository.js';

export const IDENTITY = {
  Service: Symbol.for('subshare.identity.IdentityService'),
} as const;

export const identityModule = new ContainerModule(({ bind }) => {
  bind(UserRepository).toSelf().inSingletonScope();
  bind(IdentityService).toSelf().inSingletonScope();
  bind(IDENTITY.Service).toService(IdentityService);
});
