import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKnex, migrateLatest, migrationNames, MIGRATIONS, pendingMigrations, rollbackAll, type Knex, type MigrationFolder } from '@subshare/core';
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

/**
 * The built server loads the compiled migrations (migrations/dist/*.js), tests and tsx the sources:
 * both must record the same names, or a database migrated by one would run everything again
 * under the other.
 */
describe('compiled migrations', function () {
  this.timeout(60_000);
  const root = fileURLToPath(new URL('../../', import.meta.url));
  let compiled: MigrationFolder;
  let fromSource: Knex;
  let fromCompiled: Knex;

  before(async () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'subshare-compiled-migrations-'));
    // The same compiler settings as `npm run build`, written elsewhere so a real build is left alone.
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'migrations'), '--outDir', outDir], {
      stdio: 'inherit',
    });
    writeFileSync(path.join(outDir, 'package.json'), JSON.stringify({ type: 'module' })); // as the repository's own package.json says
    compiled = { dir: outDir, extension: '.js' };
    fromSource = createKnex(await harness().db.createDatabase('subshare_migrations_source'));
    fromCompiled = createKnex(await harness().db.createDatabase('subshare_migrations_compiled'));
  });
  after(async () => {
    await fromSource?.destroy();
    await fromCompiled?.destroy();
    if (compiled) rmSync(compiled.dir, { recursive: true, force: true });
  });

  it('are every source migration, compiled to JavaScript, listed under the source names', () => {
    expect(MIGRATIONS.extension).to.equal('.ts'); // this test runs the sources, under tsx
    expect(readdirSync(compiled.dir).filter((file) => file.endsWith('.js'))).to.have.length(migrationNames().length);
    expect(migrationNames(compiled)).to.deep.equal(migrationNames());
    expect(migrationNames()).to.satisfy((names: string[]) => names.length > 5 && names.every((name) => /^\d{14}_[\w-]+\.ts$/.test(name)));
  });

  it('a database migrated from the sources is current for the compiled migrations, and the other way round', async () => {
    const applied = await migrateLatest(fromSource);
    expect(await pendingMigrations(fromSource, compiled)).to.deep.equal([]);
    expect(await migrateLatest(fromSource, compiled)).to.deep.equal([]);

    expect(await migrateLatest(fromCompiled, compiled)).to.deep.equal(applied);
    expect(await pendingMigrations(fromCompiled)).to.deep.equal([]);
    const stored = await fromCompiled('knex_migrations').orderBy('id').pluck('name');
    expect(stored).to.deep.equal(applied);
  });
});
