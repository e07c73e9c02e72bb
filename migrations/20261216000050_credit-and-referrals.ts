// Codes and credit (issue 37), the buyer's side of the money ledger.
// - credit_entries: money the shop owes a buyer, per currency, one row per fact, never changed.
//   Lots (earned, returned, released) add; spent and expired take away. A lot expires
//   CREDIT_MONTHS after it was written; spending takes the oldest lot first, so what a lot still
//   holds at its expiry is a pure function of the rows (modules/credit/credit-rules.ts), and the
//   expiry job writes it off as an `expired` row. `entry_key` names the fact (`spend:payment:42`,
//   `earn:referral:7`, `expire:lot:9`…): a repeat is refused by the database, so a retried job or a
//   replayed notification changes nothing. Writers hold the buyer's advisory lock (CreditService).
// - referrals: who invited whom (one inviter per buyer, set at sign-up from `/?ref=CODE`), and
//   whether the inviter's reward was granted or refused (why, for staff).
// - users.referral_code: the buyer's public invitation code, made at first read.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.text('referral_code').unique({ indexName: 'users_referral_code_unique' });
  });
  await knex.schema.createTable('referrals', (t) => {
    t.bigIncrements('id');
    t.bigInteger('inviter_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('invitee_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('state').notNullable().defaultTo('pending');
    t.text('refused_reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('decided_at', { useTz: true });
    t.unique(['invitee_user_id'], { indexName: 'referrals_one_inviter' });
    t.check("state in ('pending', 'rewarded', 'refused')", [], 'referrals_state_check');
    t.check('inviter_user_id <> invitee_user_id', [], 'referrals_not_self');
    t.index(['inviter_user_id', 'state']);
  });
  await knex.schema.createTable('credit_entries', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.specificType('currency', 'char(3)').notNullable();
    t.text('kind').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.timestamp('expires_at', { useTz: true });
    t.text('entry_key').notNullable();
    t.bigInteger('order_id').references('orders.id').onDelete('SET NULL');
    t.bigInteger('payment_id').references('payments.id').onDelete('SET NULL');
    t.bigInteger('referral_id').references('referrals.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['entry_key'], { indexName: 'credit_entries_key_unique' });
    t.check("kind in ('earned', 'returned', 'released', 'spent', 'expired')", [], 'credit_entries_kind_check');
    t.check("currency in ('EUR', 'KRW')", [], 'credit_entries_currency_check');
    t.check('amount_minor >= 0', [], 'credit_entries_amount_check');
    // A lot has an expiry; a debit has none.
    t.check("(kind in ('earned', 'returned', 'released')) = (expires_at is not null)", [], 'credit_entries_lot_expiry_check');
    t.index(['user_id', 'currency']);
    t.index(['order_id']);
  });
  await knex.raw("create index credit_entries_lots_by_expiry on credit_entries (expires_at) where kind in ('earned', 'returned', 'released')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('credit_entries');
  await knex.schema.dropTable('referrals');
  await knex.schema.alterTable('users', (t) => t.dropColumn('referral_code'));
}
