import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createKnex, migrateLatest, MIGRATIONS_DIR, seedDemoCatalog, type Knex } from '@subshare/core';
import { harness } from '../support/harness.js';

const MIGRATION = '20261128000100_order-total-eur.ts';

/**
 * The EUR-total migration on a database that already has orders: EUR orders keep their total,
 * KRW orders get the catalog's EUR sale price of the same options × quantity, an option without
 * an EUR price counts 0, and the column is required afterwards.
 */
describe('migration: orders.total_eur_minor backfill', () => {
  let knex: Knex;
  let earlier: string;

  before(async () => {
    knex = createKnex(await harness().db.createDatabase('subshare_total_eur'));
    // Every migration before this one, from a folder of their own.
    earlier = mkdtempSync(path.join(os.tmpdir(), 'subshare-migrations-'));
    for (const file of readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith('.ts') && name < MIGRATION))
      copyFileSync(path.join(MIGRATIONS_DIR, file), path.join(earlier, file));
    await migrateLatest(knex, earlier);
    await seedDemoCatalog(knex);
  });
  after(async () => {
    await knex.destroy();
    rmSync(earlier, { recursive: true, force: true });
  });

  it('fills the EUR total of existing orders from their items and the catalog, then requires it', async () => {
    const [user] = await knex('users').insert({ email: 'backfill@example.test', role: 0 }).returning('id');
    const [price] = await knex('platform_prices').where({ currency: 'EUR' }).orderBy(['platform_id', 'duration_id', 'plan_type_id']).limit(1);
    const option = { platform_id: price.platform_id, duration_id: price.duration_id, plan_type_id: price.plan_type_id };
    const krw = await knex('platform_prices')
      .where({ ...option, currency: 'KRW' })
      .first();
    const months = (await knex('durations').where({ id: price.duration_id }).first()).months;

    const order = async (currency: 'EUR' | 'KRW', unit: number, quantity: number) => {
      const [row] = await knex('orders')
        .insert({ user_id: user.id, email: 'backfill@example.test', currency, total_minor: unit * quantity, payment_method: 2 })
        .returning('id');
      await knex('order_items').insert({ order_id: row.id, ...option, months, quantity, unit_price_minor: unit, currency });
      return row.id as number;
    };
    const eur = await order('EUR', 123, 2); // an old EUR price: the order's own total is kept
    const won = await order('KRW', krw.sale_price_minor, 3);
    const [bare] = await knex('orders').insert({ user_id: user.id, email: 'backfill@example.test', currency: 'KRW', total_minor: 5000 }).returning('id');

    // This migration runs first; the later ones come after it in the same call.
    expect((await migrateLatest(knex))[0]).to.equal(MIGRATION);
    const totals = new Map(
      (await knex('orders').whereIn('id', [eur, won, bare.id]).select('id', 'total_eur_minor')).map((row) => [row.id, row.total_eur_minor]),
    );
    expect(totals.get(eur)).to.equal(246);
    expect(totals.get(won)).to.equal(price.sale_price_minor * 3);
    expect(totals.get(bare.id)).to.equal(0);

    const column = await knex('information_schema.columns').where({ table_name: 'orders', column_name: 'total_eur_minor' }).first('is_nullable');
    expect(column.is_nullable).to.equal('NO');
    let failure: unknown;
    await knex('orders')
      .insert({ user_id: user.id, email: 'backfill@example.test', currency: 'EUR', total_minor: 1 })
      .catch((error: unknown) => (failure = error));
    expect((failure as { code?: string }).code).to.equal('23502'); // not null
  });
});
