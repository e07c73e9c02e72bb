// Referral credit's guards (issue 37):
// - payments.card_fingerprint: Stripe's fingerprint of the card that paid
//   (`payment_method_details.card.fingerprint` of the PaymentIntent's latest charge), stored when
//   the payment is paid. The same card number gives the same fingerprint across customers, so an
//   invitee who pays with a card the inviter paid with is the inviter.
// - referrals.reward_payment_id / reward_minor / reward_currency: which payment the reward was
//   computed from and what it came to (staff see why; the e-mail says it).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.text('card_fingerprint');
  });
  await knex.raw('create index payments_card_fingerprint on payments (card_fingerprint) where card_fingerprint is not null');
  await knex.schema.alterTable('referrals', (t) => {
    t.bigInteger('reward_payment_id').references('payments.id').onDelete('SET NULL');
    t.bigInteger('reward_minor');
    t.specificType('reward_currency', 'char(3)');
  });
  // The monthly cap counts an inviter's rewards by the month they were decided.
  await knex.raw("create index referrals_rewarded_by_inviter on referrals (inviter_user_id, decided_at) where state = 'rewarded'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists referrals_rewarded_by_inviter');
  await knex.schema.alterTable('referrals', (t) => {
    t.dropColumn('reward_payment_id');
    t.dropColumn('reward_minor');
    t.dropColumn('reward_currency');
  });
  await knex.raw('drop index if exists payments_card_fingerprint');
  await knex.schema.alterTable('payments', (t) => t.dropColumn('card_fingerprint'));
}
