// A verification code now says what it is for: confirming the e-mail address at sign-up, or
// resetting a forgotten password. Each check looks only at codes of its own purpose, so a sign-up
// code can never reset a password and a reset code can never verify an address. Existing codes
// were all sign-up codes.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('verification_codes', (t) => {
    t.text('purpose').notNullable().defaultTo('signup');
    t.check("purpose in ('signup', 'password_reset')", [], 'verification_codes_purpose_check');
  });
  await knex.raw('create index verification_codes_user_purpose_idx on verification_codes (user_id, purpose, id desc) where consumed_at is null');
}

export async function down(knex: Knex): Promise<void> {
  // Without the column a reset code would pass for a sign-up code.
  await knex('verification_codes').where({ purpose: 'password_reset' }).delete();
  await knex.raw('drop index verification_codes_user_purpose_idx');
  await knex.schema.alterTable('verification_codes', (t) => {
    t.dropChecks(['verification_codes_purpose_check']);
    t.dropColumn('purpose');
  });
}
