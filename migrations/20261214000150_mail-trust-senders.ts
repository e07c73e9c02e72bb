// Only the platform speaks for the platform (issue 33), the reader's part.
// - mailbox_found_mail.sender: the author (RFC 5322 From) of a found link or code, so that a
//   poll hands it out only for a platform whose senders include it. Rows found before this have
//   none and count as not found (the owner's next read writes them again; they expire in an hour).
// - platforms.alert_rules.linkHosts: the hosts a household or verification link may point at.
//   Stored rules without them hand out no link, so the demo platforms that stand for the shipped
//   platforms get the shipped hosts here (as of this migration: the data file may change later);
//   rules that already name link hosts are left alone.
import type { Knex } from 'knex';

const DEMO_LINK_HOSTS: Record<string, string[]> = {
  orbitview: ['www.netflix.com', 'netflix.com'],
  reelnest: ['www.disneyplus.com', 'disneyplus.com'],
  kinoly: ['www.youtube.com', 'youtube.com', 'accounts.google.com'],
  tunewell: ['www.spotify.com', 'accounts.spotify.com'],
  quillmind: ['chatgpt.com', 'auth.openai.com'],
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mailbox_found_mail', (t) => {
    t.text('sender');
  });
  for (const [slug, hosts] of Object.entries(DEMO_LINK_HOSTS)) {
    await knex('platforms')
      .where({ slug })
      .andWhereRaw("alert_rules -> 'linkHosts' is null")
      .update({ alert_rules: knex.raw("alert_rules || jsonb_build_object('linkHosts', ?::jsonb)", [JSON.stringify(hosts)]) });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mailbox_found_mail', (t) => {
    t.dropColumn('sender');
  });
  await knex('platforms').update({ alert_rules: knex.raw("alert_rules - 'linkHosts'") });
}
