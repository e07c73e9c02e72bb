// Accounts that heal themselves (issue 29).
// - platforms.alert_rules: the platform's account-alert rules (senders, phrases per kind), data
//   edited in the catalog editor (validation/alert-rules.ts).
// - platform_accounts.health / health_since / health_cause: ok, attention or broken, since when,
//   and why (the mail that caused it: subject, sender, time; or staff's reason).
// - account_alert_mail: every platform mail the watcher recorded, ONCE: the key is the mailbox,
//   the folder's UIDVALIDITY and the UID, and the Message-ID is unique per mailbox too, so two
//   processes, a takeover or a restart that see the same mail insert nothing the second time.
//   Only what the audit may show is kept (subject, sender, times, the verdict), never the body.
// - account_health_moves: one row per subscription taken off a broken account (unique per
//   subscription): where it went, or that it waits for a slot; and the staff extension of its
//   lost time, at most once.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('platforms', (t) => {
    t.jsonb('alert_rules').notNullable().defaultTo(knex.raw(`'{"senders":[],"rules":[]}'::jsonb`));
  });

  await knex.schema.alterTable('platform_accounts', (t) => {
    t.text('health').notNullable().defaultTo('ok');
    t.timestamp('health_since', { useTz: true });
    t.jsonb('health_cause');
    t.check("health in ('ok', 'attention', 'broken')", [], 'platform_accounts_health_check');
    t.index(['health']);
  });

  await knex.schema.createTable('account_alert_mail', (t) => {
    t.bigIncrements('id');
    t.bigInteger('mailbox_id').notNullable().references('mailboxes.id').onDelete('CASCADE');
    t.text('uid_validity').notNullable();
    t.bigInteger('uid').notNullable();
    t.text('message_id');
    t.bigInteger('platform_account_id').notNullable().references('platform_accounts.id').onDelete('CASCADE');
    t.text('sender').notNullable();
    t.text('subject').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    // The verdict: an alert kind, or 'unrecognised' (the platform's sender, no rule matched).
    t.text('kind').notNullable();
    t.timestamp('classified_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['mailbox_id', 'uid_validity', 'uid'], { indexName: 'account_alert_mail_uid_unique' });
    t.index(['platform_account_id', 'received_at']);
  });
  await knex.raw('create unique index account_alert_mail_message_id_unique on account_alert_mail (mailbox_id, message_id) where message_id is not null');

  await knex.schema.createTable('account_health_moves', (t) => {
    t.bigIncrements('id');
    t.bigInteger('platform_account_id').notNullable().references('platform_accounts.id');
    t.bigInteger('subscription_id').notNullable().references('subscriptions.id');
    t.bigInteger('to_subscription_id').references('subscriptions.id');
    // From when the buyer could not use the account (the account turned broken).
    t.timestamp('lost_from', { useTz: true }).notNullable();
    t.timestamp('moved_at', { useTz: true });
    t.bigInteger('extended_ms');
    t.timestamp('extended_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['subscription_id'], { indexName: 'account_health_moves_one_per_subscription' });
    t.check('(to_subscription_id is null) = (moved_at is null)', [], 'account_health_moves_moved_check');
    t.index(['platform_account_id']);
  });
  await knex.raw('create index account_health_moves_waiting on account_health_moves (platform_account_id) where moved_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('account_health_moves');
  await knex.schema.dropTable('account_alert_mail');
  await knex.schema.alterTable('platform_accounts', (t) => {
    t.dropChecks(['platform_accounts_health_check']);
    t.dropIndex(['health']);
    t.dropColumns('health', 'health_since', 'health_cause');
  });
  await knex.schema.alterTable('platforms', (t) => {
    t.dropColumn('alert_rules');
  });
}
