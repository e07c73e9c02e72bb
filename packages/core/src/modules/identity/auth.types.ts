import type { Role } from './models/user.model.js';

/** What every login call answers (product.md: the login response). */
export interface LoginResult {
  id: number;
  token: string;
  tokenExpiration: Date;
  isEmailVerified: boolean;
  photoUrl: string | null;
  role: Role;
  /** True when this call made the account (registration, a social login's first sign-in): sign-up's followers (a referral) act on it. */
  signedUp?: boolean;
}

/** The caller of a request, read from the database on every request (a demoted admin loses access at once). */
export interface AuthenticatedUser {
  id: number;
  email: string;
  name: string | null;
  /** The profile photo's address (social logins), as the panel shows it. */
  photoUrl: string | null;
  role: Role;
  isEmailVerified: boolean;
  languageId: 1 | 2;
  sessionId: string;
}

/** Where a request came from, for rate limits and the audit log. */
export interface RequestContext {
  ip: string;
}
