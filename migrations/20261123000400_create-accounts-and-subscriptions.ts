// The shop's platform accounts, the mailboxes behind their login e-mails, the messages read
// from those mailboxes, and subscriptions: one buyer's slot on an account for a period.
//
// The exclusion constraint on subscriptions is the guarantee that one slot is never held by
// two active subscriptions at overlapping times, whatever the application code does. Slot 0
// means the whole account, so it is stored as the range of every slot and overlaps them all.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists btree_gist');

  await knex.schema.createTable('mailboxes', (t) => {
    t.bigIncrements('id');
    t.integer('platform_id').references('platforms.id');
    t.text('email').notNullable().unique();
    t.text('password_encrypted').notNullable(); // AES-256-GCM, see core/shared/crypto
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("email = lower(email) and position('@' in email) > 1", [], 'mailboxes_email_check');
    t.index(['platform_id']);
  });

  await knex.schema.createTable('platform_accounts', (t) => {
    t.bigIncrements('id');
    t.integer('platform_id').notNullable().references('platforms.id');
    t.text('login_email').notNullable();
    t.text('password_encrypted').notNullable();
    t.smallint('slots_count').notNullable();
    t.text('forwarding_email').notNullable();
    t.bigInteger('mailbox_id').references('mailboxes.id');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('slots_count between 1 and 20', [], 'platform_accounts_slots_count_check');
    t.check("login_email = lower(login_email) and position('@' in login_email) > 1", [], 'platform_accounts_email_check');
    t.unique(['platform_id', 'login_email'], { indexName: 'platform_accounts_platform_login_unique' });
    t.index(['mailbox_id']);
  });

  await knex.schema.createTable('subscriptions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id');
    t.bigInteger('order_item_id').notNullable().references('order_items.id');
    t.bigInteger('platform_account_id').notNullable().references('platform_accounts.id');
    t.smallint('slot').notNullable();
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    // active: holds its slot; ended: reached its end; replaced: moved to another account
    t.text('status').notNullable().defaultTo('active');
    t.bigInteger('replaced_from_id').references('subscriptions.id');
    t.timestamp('reminded_at', { useTz: true });
    t.timestamp('ended_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('slot between 0 and 20', [], 'subscriptions_slot_check');
    t.check('ends_at > starts_at', [], 'subscriptions_period_check');
    t.check("status in ('active', 'ended', 'replaced')", [], 'subscriptions_status_check');
    t.index(['user_id']);
    t.index(['status', 'ends_at']);
  });
  await knex.raw(`
    alter table subscriptions
      add column slot_range int4range generated always as (
        case when slot = 0 then int4range(1, 21) else int4range(slot, slot + 1) end
      ) stored`);
  await knex.raw(`
    alter table subscriptions add constraint subscriptions_no_shared_slot
      exclude using gist (
        platform_account_id with =,
        slot_range with &&,
        tstzrange(starts_at, ends_at) with &&
      ) where (status = 'active')`);
  // An order item activates one subscription at most (retries and races end here).
  await knex.raw('create unique index subscriptions_one_per_order_item on subscriptions (order_item_id) where replaced_from_id is null');

  // A slot number must exist on its account: checked by the database, not only by code.
  await knex.raw(`
    create function subscriptions_slot_within_account() returns trigger language plpgsql as $$
    declare account_slots smallint;
    begin
      select slots_count into account_slots from platform_accounts where id = new.platform_account_id;
      if new.slot > account_slots then
        raise exception 'slot % does not exist on account % (% slots)', new.slot, new.platform_account_id, account_slots
          using errcode = 'check_violation', constraint = 'subscriptions_slot_within_account';
      end if;
      return new;
    end $$`);
  await knex.raw(`
    create trigger subscriptions_slot_within_account before insert or update of slot, platform_account_id
      on subscriptions for each row execute function subscriptions_slot_within_account()`);

  // Renewals, replacements and activations of an order item each leave a trace here.
  await knex.schema.alterTable('order_items', (t) => {
    t.bigInteger('subscription_id').references('subscriptions.id');
    t.timestamp('applied_at', { useTz: true });
  });

  await knex.schema.createTable('mailbox_messages', (t) => {
    t.bigIncrements('id');
    t.bigInteger('mailbox_id').notNullable().references('mailboxes.id').onDelete('CASCADE');
    t.bigInteger('uid_validity').notNullable();
    t.bigInteger('uid').notNullable();
    t.text('from_address');
    t.text('subject');
    t.timestamp('received_at', { useTz: true }).notNullable();
    // household_link (video platforms' "not part of the household" e-mail) or login_code (AI chat)
    t.text('kind').notNullable();
    t.text('value').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['mailbox_id', 'uid_validity', 'uid'], { indexName: 'mailbox_messages_uid_unique' });
    t.index(['mailbox_id', 'kind', 'received_at']);
    t.check("kind in ('household_link', 'login_code')", [], 'mailbox_messages_kind_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('mailbox_messages');
  await knex.schema.alterTable('order_items', (t) => {
    t.dropColumn('subscription_id');
    t.dropColumn('applied_at');
  });
  await knex.schema.dropTable('subscriptions');
  await knex.raw('drop function if exists subscriptions_slot_within_account()');
  await knex.schema.dropTable('platform_accounts');
  await knex.schema.dropTable('mailboxes');
}
