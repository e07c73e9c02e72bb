// The one-time code of a code e-mail (verification, password reset), kept apart from the bodies:
// the stored subject, HTML and text show the code masked, so staff reading the outbox never see
// it; delivery puts the code back in, and clears this column once the SMTP server has the e-mail.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_outbox', (t) => {
    t.text('code');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_outbox', (t) => {
    t.dropColumn('code');
  });
}
