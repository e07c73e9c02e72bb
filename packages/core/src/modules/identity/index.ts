export { identityModule } from './identity.module.js';
export {
  IdentityService,
  type AdminResult,
  type RoleChange,
  type StaffMember,
  type UserProfile,
  type UserSummary,
  type UsersPage,
} from './identity.service.js';
export { USER_SEARCH_LIMIT } from './identity.service.js';
export { AuthService } from './auth.service.js';
export { VerificationService } from './verification.service.js';
export { SocialLoginService, type SocialProviders } from './social-login.service.js';
export type { AuthenticatedUser, LoginResult, RequestContext } from './auth.types.js';
export { ROLES, type Role, type RoleName } from './models/user.model.js';
export { PASSWORD_MIN, PASSWORD_MAX, hashPassword } from './passwords.js';
export { TOKEN_LIFETIME_MS, REMEMBER_ME_LIFETIME_MS, TOKEN_ISSUER, TOKEN_AUDIENCE, signToken, verifyToken } from './tokens.js';
export { CODE_RULES, LIMITS as IDENTITY_RATE_LIMITS } from './rate-limits.js';
export type { SocialProfile, SocialProvider } from './providers/social-profile.js';
