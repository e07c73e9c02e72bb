// Only the platform speaks for the platform (issue 33).
// - account_alert_mail.authentication: whether the mail passed DMARC for its From domain
//   (a DKIM signature aligned with that domain, or the trusted mail server's
//   Authentication-Results): 'verified', or why not: 'noSignature', 'badSignature', 'notAligned'.
//   Null on rows recorded before the shop checked (none of them is treated as verified).
// - account_alert_mail.action: what the mail did to the account: 'none', 'attention', 'broken',
//   'held' (the platform's circuit breaker was open: staff decide), 'unclassified' (verified, no
//   rule knows it: listed for staff, changes nothing) or 'unverified' (changes nothing).
// - account_alert_mail.link_dropped: a household or verification link in it was dropped because
//   its host is not the platform's (kept for staff to see that it happened, never the link).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_alert_mail', (t) => {
    t.text('authentication');
    t.text('action');
    t.boolean('link_dropped').notNullable().defaultTo(false);
    t.check("authentication in ('verified', 'noSignature', 'badSignature', 'notAligned')", [], 'account_alert_mail_authentication_check');
    t.check("action in ('none', 'attention', 'broken', 'held', 'unclassified', 'unverified')", [], 'account_alert_mail_action_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_alert_mail', (t) => {
    t.dropChecks(['account_alert_mail_authentication_check', 'account_alert_mail_action_check']);
    t.dropColumns('authentication', 'action', 'link_dropped');
  });
}
