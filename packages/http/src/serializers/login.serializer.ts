import type { LoginResult } from '@subshare/core';

/** The login response of product.md: `{ id, token, tokenExpiration, isEmailVerified, photoUrl, role }`. */
export function serializeLogin(result: LoginResult) {
  return {
    id: result.id,
    token: result.token,
    tokenExpiration: result.tokenExpiration.toISOString(),
    isEmailVerified: result.isEmailVerified,
    photoUrl: result.photoUrl,
    role: result.role,
  };
}
