// When an outbox e-mail was last tried: staff see it next to the error, and the sweeper leaves
// alone a pending e-mail that a delivery job tried a moment ago.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_outbox', (t) => {
    t.timestamp('last_attempt_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_outbox', (t) => {
    t.dropColumn('last_attempt_at');
  });
}
