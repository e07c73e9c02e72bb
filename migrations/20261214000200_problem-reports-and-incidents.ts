// No single voice empties the shelf (issue 33, items 3 and 4).
// - account_problem_reports: a buyer's "it doesn't work" on one of their active subscriptions:
//   the kind (cantLogIn, wrongPassword, profileTaken, tooManyScreens, other), an optional note,
//   the account it was on, and staff's confirmation. Once per subscription per hour is decided
//   under the subscription's row lock (account-reports.flow.ts); the index makes that look-up cheap.
// - platform_incidents: the circuit breaker's incidents. When more of a platform's accounts would
//   turn broken within an hour than ACCOUNT_BREAKS_PER_HOUR allows, the further breaks are held
//   (staff decide) and one incident row stands for them: opened, last held, how many held, and
//   which accounts. Staff get one alert e-mail per row (its id is in the idempotency key).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_problem_reports', (t) => {
    t.bigIncrements('id');
    t.bigInteger('subscription_id').notNullable().references('subscriptions.id');
    t.bigInteger('user_id').notNullable().references('users.id');
    t.bigInteger('platform_account_id').notNullable().references('platform_accounts.id');
    t.text('kind').notNullable();
    t.text('note');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('confirmed_at', { useTz: true });
    t.bigInteger('confirmed_by').references('users.id');
    t.check("kind in ('cantLogIn', 'wrongPassword', 'profileTaken', 'tooManyScreens', 'other')", [], 'account_problem_reports_kind_check');
    t.check('note is null or char_length(note) <= 500', [], 'account_problem_reports_note_check');
    t.index(['subscription_id', 'created_at']);
    t.index(['platform_account_id', 'created_at']);
  });

  await knex.schema.createTable('platform_incidents', (t) => {
    t.bigIncrements('id');
    t.bigInteger('platform_id').notNullable().references('platforms.id');
    t.timestamp('opened_at', { useTz: true }).notNullable();
    t.timestamp('last_held_at', { useTz: true }).notNullable();
    t.integer('held').notNullable().defaultTo(0);
    t.specificType('account_ids', 'bigint[]').notNullable().defaultTo('{}');
    t.index(['platform_id', 'last_held_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('platform_incidents');
  await knex.schema.dropTable('account_problem_reports');
}
