// The e-mail outbox (every e-mail is written here in the same transaction as its cause and
// delivered by a job), the audit log of staff actions, shared rate-limit counters, and worker
// heartbeats.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_outbox', (t) => {
    t.bigIncrements('id');
    // 0 welcome, 1 purchasedActiveSubscribe, 2 purchasedNotActiveSubscribe, 3 subscribeActive,
    // 4 trustPilotInvite, 5 verificationCode, 6 appleTVActive, 7 expiryReminder, 8 subscriptionEnded, 9 subscriptionReplaced
    t.smallint('kind').notNullable();
    t.bigInteger('user_id').references('users.id').onDelete('SET NULL');
    t.text('to_address').notNullable();
    t.smallint('language_id').notNullable().defaultTo(1);
    t.text('subject').notNullable();
    t.text('html').notNullable();
    t.text('text').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.smallint('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.text('idempotency_key').unique(); // e.g. "order:42:purchased" so a retried cause writes one e-mail
    t.text('message_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.check('kind between 0 and 15', [], 'email_outbox_kind_check');
    t.check("status in ('pending', 'sent', 'failed', 'kept')", [], 'email_outbox_status_check');
    t.check('language_id in (1, 2)', [], 'email_outbox_language_check');
    t.index(['status', 'created_at']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('id');
    t.bigInteger('actor_user_id').references('users.id').onDelete('SET NULL');
    t.text('actor_label'); // "cli", "worker" or the staff e-mail at the time
    t.text('action').notNullable();
    t.text('target_type');
    t.text('target_id');
    t.jsonb('details').notNullable().defaultTo('{}');
    t.text('ip');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
    t.index(['actor_user_id', 'created_at']);
    t.index(['target_type', 'target_id']);
  });

  // Fixed-window counters shared by every HTTP process.
  await knex.schema.createTable('rate_limits', (t) => {
    t.text('key').primary();
    t.integer('hits').notNullable().defaultTo(0);
    t.timestamp('window_ends_at', { useTz: true }).notNullable();
    t.index(['window_ends_at']);
  });

  await knex.schema.createTable('worker_heartbeats', (t) => {
    t.text('worker_id').primary();
    t.text('hostname').notNullable();
    t.integer('pid').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('seen_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('worker_heartbeats');
  await knex.schema.dropTable('rate_limits');
  await knex.schema.dropTable('audit_log');
  await knex.schema.dropTable('email_outbox');
}
