import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { harness, testEnv } from '../support/harness.js';
import { buyer, createOrder, createPlatform } from '../support/shop.js';

const HEADER = 'id,created,state,userId,email,platform,type,duration,quantity,total,currency,totalEur,paymentMethod,paid,completed,refunded';

/** `subshare export-orders`: the API's CSV export from a shell, through the same service and audit trail. */
describe('subshare CLI: export-orders', function () {
  this.timeout(120_000);
  const knex = () => harness().knex;
  const cli = (...args: string[]) => runCli(args, testEnv(harness().db.url, { CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64') }));
  let dir: string;

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'subshare-export-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the orders of a state as CSV to standard output, newest first, audited as "cli"', async () => {
    const platform = await createPlatform();
    const user = await buyer();
    const older = await createOrder(user, platform);
    // Failed before the next is made: the same choice while one is open (state 0) is that order again.
    await knex()('orders').where({ id: older }).update({ state: 3, payment_method: 1 });
    const newer = await createOrder(user, platform);
    await knex()('orders').where({ id: newer }).update({ state: 3, payment_method: 1 });
    const [{ n }] = await knex()('orders').where({ state: 3 }).count<Array<{ n: number }>>('id as n');
    const audits = await knex()('audit_log').where({ action: 'orders.export', actor_label: 'cli' }).count<Array<{ n: number }>>('id as n');

    const result = await cli('export-orders', '--state', '3');
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    const lines = result.stdout.split('\r\n');
    expect(lines[0]).to.equal(HEADER); // no byte-order mark on standard output
    expect(lines.at(-1)).to.equal('');
    expect(lines).to.have.length(Number(n) + 2);
    const first = lines[1].split(',');
    expect(first[1]).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect([first[0], ...first.slice(2, 13)]).to.deep.equal([
      String(newer),
      '3',
      String(user.id),
      user.email,
      platform.name,
      'Standard',
      '1 Month',
      '1',
      '4.99',
      'EUR',
      '4.99',
      'card',
    ]);
    expect(first.at(-1), 'refunded: nothing went back').to.equal('');
    expect(first).to.have.length(HEADER.split(',').length);
    expect(lines[2].startsWith(`${older},`)).to.equal(true);
    const [after] = await knex()('audit_log').where({ action: 'orders.export', actor_label: 'cli' }).count<Array<{ n: number }>>('id as n');
    expect(Number(after.n)).to.equal(Number(audits[0].n) + 1);
  });

  it('--out writes a file with a byte-order mark and says how many orders; a bad state fails with one line', async () => {
    const file = path.join(dir, 'orders.csv');
    const result = await cli('export-orders', '--out', file);
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    const [{ n }] = await knex()('orders').count<Array<{ n: number }>>('id as n');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(`\uFEFF${HEADER}\r\n`)).to.equal(true);
    // A record starts with its id and creation time (a quoted field may hold a line break).
    const records = text.match(/\r\n\d+,\d{4}-\d\d-\d\dT/g) ?? [];
    expect(records).to.have.length(Number(n));
    expect(text.endsWith('\r\n')).to.equal(true);
    expect(result.stdout.trim()).to.equal(`Wrote ${n} order${Number(n) === 1 ? '' : 's'} to ${file}.`);

    const bad = await cli('export-orders', '--state', '7');
    expect(bad.code).to.equal(1);
    expect(bad.stdout).to.equal('');
    expect(bad.stderr.trim()).to.match(/^--state must be an order state: 0 created, .* \(got "7"\)\.$/);
  });
});
