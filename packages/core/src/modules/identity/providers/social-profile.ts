/**
 * What a social login provider tells us about a person, after we verified it with the
 * provider. The key is the provider's own user id, never the e-mail.
 */
export type SocialProvider = 'google' | 'naver' | 'kakao';

export interface SocialProfile {
  provider: SocialProvider;
  providerUserId: string;
  /** Null when the person did not share an e-mail. */
  email: string | null;
  /** Only a verified address may be linked to an existing account. */
  emailVerified: boolean;
  name: string | null;
  photoUrl: string | null;
}

/** Google Identity Services: the browser gets an ID token (JWT); we verify it against Google's keys. */
export interface GoogleIdTokenVerifier {
  verify(idToken: string): Promise<SocialProfile>;
}

/** Naver Login (OAuth 2.0): authorize URL with our state, then code + state → token → profile. */
export interface NaverOAuthClient {
  authorizeUrl(state: string, redirectUri: string): string;
  exchange(code: string, state: string): Promise<SocialProfile>;
}

/** Kakao Login (REST): code → token → user info. Implemented but not shown on the screen. */
export interface KakaoOAuthClient {
  authorizeUrl(state: string, redirectUri: string): string;
  exchange(code: string, redirectUri: string): Promise<SocialProfile>;
}
