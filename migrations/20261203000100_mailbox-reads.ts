// Mailbox reading shared by the cluster (issue 16): one process at a time reads and watches a
// mailbox (it holds a session advisory lock), and publishes here what it found, so that every
// other process answers polls from these rows instead of opening IMAP connections of its own.
// - mailbox_read_state: per mailbox, what the published mail covers (every platform e-mail
//   received at or after covered_since), when it was read (or whether a watch keeps it current),
//   the last failure, and when any process last polled it (the owner's watch lives on that).
// - mailbox_found_mail: the platform e-mails found, the link or code encrypted with the
//   credentials key (they are secrets); pruned an hour after they were received.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mailbox_read_state', (t) => {
    t.bigInteger('mailbox_id').primary().references('mailboxes.id').onDelete('CASCADE');
    t.text('owner');
    t.timestamp('covered_since', { useTz: true });
    t.timestamp('read_at', { useTz: true });
    t.boolean('live').notNullable().defaultTo(false);
    t.text('failure_code');
    t.timestamp('failure_at', { useTz: true });
    t.timestamp('wanted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('mailbox_found_mail', (t) => {
    t.bigInteger('mailbox_id').notNullable().references('mailboxes.id').onDelete('CASCADE');
    t.bigInteger('uid').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.text('kind').notNullable();
    t.text('value_encrypted').notNullable();
    t.specificType('recipients', 'text[]').notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('found_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['mailbox_id', 'received_at', 'uid']);
    t.check("kind in ('householdLink', 'loginCode')", [], 'mailbox_found_mail_kind_check');
    t.index(['received_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('mailbox_found_mail');
  await knex.schema.dropTable('mailbox_read_state');
}
