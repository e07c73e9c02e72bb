import { expect } from 'chai';
import { createKnex, migrateLatest, pendingMigrations, rollbackAll, type Knex } from '@subshare/core';
import { harness } from '../support/harness.js';

const TABLES = [
  'users',
  'auth_sessions',
  'verification_codes',
  'social_identities',
  'durations',
  'plan_types',
  'platforms',
  'platform_texts',
  'platform_how_it_works',
  'platform_faq',
  'platform_durations',
  'platform_plan_types',
  'platform_prices',
  'orders',
  'order_items',
  'payments',
  'payment_events',
  'mailboxes',
  'platform_accounts',
  'subscriptions',
  'mailbox_messages',
  'email_outbox',
  'audit_log',
  'rate_limits',
  'worker_heartbeats',
];

async function tables(knex: Knex): Promise<string[]> {
  const rows = await knex('information_schema.tables').where({ table_schema: 'public' }).select<Array<{ table_name: string }>>('table_name');
  return rows.map((row) => row.table_name);
}

describe('migrations', () => {
  let knex: Knex;

  before(async () => {
    knex = createKnex(await harness().db.createDatabase('subshare_migrations'));
  });
  after(() => knex.destroy());

  it('build the whole data model on an empty database, and roll back to nothing', async () => {
    expect(await tables(knex)).to.deep.equal([]);
    const applied = await migrateLatest(knex);
    expect(applied.length).to.be.at.least(5);
    expect(await tables(knex)).to.include.members(TABLES);
    expect(await pendingMigrations(knex)).to.deep.equal([]);

    await rollbackAll(knex);
    expect((await tables(knex)).filter((name) => !name.startsWith('knex_'))).to.deep.equal([]);

    await migrateLatest(knex);
    expect(await tables(knex)).to.include.members(TABLES);
  });

  it('are idempotent: a second run applies nothing', async () => {
    expect(await migrateLatest(knex)).to.deep.equal([]);
  });
});
