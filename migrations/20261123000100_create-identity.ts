// Users, their login sessions (revocable tokens), e-mail verification codes and social identities.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.bigIncrements('id');
    t.text('email').notNullable();
    t.text('password_hash'); // null for users who only ever signed in with Google or Naver
    t.text('name');
    t.text('first_name');
    t.text('last_name');
    t.text('photo_url');
    t.smallint('role').notNullable().defaultTo(0);
    t.smallint('language_id').notNullable().defaultTo(1);
    t.boolean('is_email_verified').notNullable().defaultTo(false);
    t.timestamp('password_changed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('role in (0, 1, 2)', [], 'users_role_check');
    t.check('language_id in (1, 2)', [], 'users_language_check');
    t.check("email = lower(email) and position('@' in email) > 1", [], 'users_email_check');
  });
  await knex.raw('create unique index users_email_unique on users (email)');
  await knex.raw('create index users_created_at_idx on users (created_at desc)');

  // One row per issued login token (its JWT id). Revoking deletes nothing: it stamps revoked_at.
  await knex.schema.createTable('auth_sessions', (t) => {
    t.uuid('id').primary();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.boolean('remember_me').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.index(['user_id']);
    t.index(['expires_at']);
  });

  await knex.schema.createTable('verification_codes', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('code_hash').notNullable(); // HMAC of the code; the code itself is never stored
    t.smallint('failed_attempts').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('consumed_at', { useTz: true });
    t.check('failed_attempts >= 0', [], 'verification_codes_attempts_check');
    t.index(['user_id', 'created_at']);
    t.index(['email', 'created_at']);
  });

  await knex.schema.createTable('social_identities', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('provider_user_id').notNullable();
    t.text('email');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'provider_user_id'], { indexName: 'social_identities_provider_unique' });
    t.index(['user_id']);
    t.check("provider in ('google', 'naver', 'kakao')", [], 'social_identities_provider_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('social_identities');
  await knex.schema.dropTable('verification_codes');
  await knex.schema.dropTable('auth_sessions');
  await knex.schema.dropTable('users');
}
