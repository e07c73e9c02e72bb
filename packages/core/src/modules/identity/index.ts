export { IDENTITY, identityModule } from './identity.module.js';
export type { IdentityService, AdminResult } from './identity.service.js';
export { ROLES, type Role, type RoleName } from './models/user.model.js';
export { PASSWORD_MIN, PASSWORD_MAX } from './passwords.js';
