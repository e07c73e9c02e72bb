import { Model } from 'objection';

export const ROLES = { user: 0, moderator: 1, admin: 2 } as const;
export type Role = (typeof ROLES)[keyof typeof ROLES];
export type RoleName = keyof typeof ROLES;

export class UserModel extends Model {
  static override tableName = 'users';
  id!: number;
  email!: string;
  password_hash!: string | null;
  name!: string | null;
  photo_url!: string | null;
  role!: Role;
  language_id!: number;
  is_email_verified!: boolean;
  password_changed_at!: Date | null;
  /** The last role change (null: the role the user was created with). */
  role_changed_at!: Date | null;
  created_at!: Date;
  updated_at!: Date;
}
