import { ContainerModule } from 'inversify';
import { AuthService } from './auth.service.js';
import { IdentityService } from './identity.service.js';
import { SessionRepository } from './session.repository.js';
import { SocialIdentityRepository } from './social-identity.repository.js';
import { SocialLoginService } from './social-login.service.js';
import { UserRepository } from './user.repository.js';
import { VerificationCodeRepository } from './verification-code.repository.js';
import { VerificationService } from './verification.service.js';

export const identityModule = new ContainerModule(({ bind }) => {
  bind(UserRepository).toSelf().inSingletonScope();
  bind(SessionRepository).toSelf().inSingletonScope();
  bind(VerificationCodeRepository).toSelf().inSingletonScope();
  bind(SocialIdentityRepository).toSelf().inSingletonScope();
  bind(IdentityService).toSelf().inSingletonScope();
  bind(AuthService).toSelf().inSingletonScope();
  bind(VerificationService).toSelf().inSingletonScope();
  bind(SocialLoginService).toSelf().inSingletonScope();
});
