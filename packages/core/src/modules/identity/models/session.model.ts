import { Model } from 'objection';

export class AuthSessionModel extends Model {
  static override tableName = 'auth_sessions';
  id!: string;
  user_id!: number;
  remember_me!: boolean;
  created_at!: Date;
  expires_at!: Date;
  revoked_at!: Date | null;
}

/** What a verification code is for; a check only ever looks at codes of its own purpose. */
export type CodePurpose = 'signup' | 'password_reset';

export class VerificationCodeModel extends Model {
  static override tableName = 'verification_codes';
  id!: number;
  user_id!: number;
  email!: string;
  purpose!: CodePurpose;
  code_hash!: string;
  failed_attempts!: number;
  created_at!: Date;
  expires_at!: Date;
  consumed_at!: Date | null;
}

export class SocialIdentityModel extends Model {
  static override tableName = 'social_identities';
  id!: number;
  user_id!: number;
  provider!: 'google' | 'naver' | 'kakao';
  provider_user_id!: string;
  email!: string | null;
}
