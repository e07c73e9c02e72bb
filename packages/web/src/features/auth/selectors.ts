import type { RootState } from '../../app/store';
import { ROLES } from './session';

export const selectUser = (state: RootState) => state.auth.user;
export const selectIsLoggedIn = (state: RootState) => state.auth.user !== null;
export const selectUserId = (state: RootState) => state.auth.user?.id ?? null;
export const selectToken = (state: RootState) => state.auth.user?.token ?? null;
export const selectReturnUrl = (state: RootState) => state.auth.returnUrl;
/** Staff may enter /jve; the server still checks every call. */
export const selectIsStaff = (state: RootState) => (state.auth.user?.role ?? ROLES.user) >= ROLES.moderator;
