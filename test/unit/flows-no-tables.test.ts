/**
 * Flows never touch tables (docs/data-access.md, "Who may touch the database"): a flow groups the
 * modules' calls in a transaction (`knex.transaction`, `readOnlyTransaction`, `advisoryXactLock`)
 * and hands the transaction on; the SQL lives in the owning module's repository or service. A plain
 * search of packages/core/src/flows/, so a query written in a flow fails the build, not a review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const FLOWS = path.resolve(import.meta.dirname, '../../packages/core/src/flows');

/** What a query looks like in code, and why a flow may not write it. */
const QUERIES: Array<[RegExp, string]> = [
  [/\b(?:trx|knex|db|tx)\s*\(\s*['"`]/, 'queries a table through knex (trx(…), knex(…))'],
  [/(?<!\bArray)\.(?:table|from|into|withSchema)\s*\(/, "names a table (knex's .table/.from/.into)"],
  [/\.raw\s*\(|\bsqlRows\s*\(|\binsertRowUnlessConflict\s*\(|\bupdateById\s*\(/, 'runs SQL of its own'],
  [/\.query\s*\(\s*(?:trx|this\.knex|knex)?\s*\)/, 'queries an Objection model'],
  [/['"`]\s*(?:select\s[^'"`]*\bfrom\s|insert\s+into\s|update\s+\w+\s+set\s|delete\s+from\s|with\s+\w+\s+as\s*\()/i, 'writes SQL in a string'],
];

/** A line without its comment: code only (a comment may name a table). */
function codeOf(line: string): string {
  if (/^\s*(\*|\/\*|\/\/)/.test(line)) return '';
  return line.replace(/\s\/\/.*$/, '').replace(/\/\*.*?\*\//g, '');
}

function offences(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const code = codeOf(line);
    return QUERIES.filter(([pattern]) => pattern.test(code)).map(([, why]) => `${why}: ${line.trim()}`);
  });
}

describe('flows never touch tables', () => {
  it('finds no query in packages/core/src/flows/', () => {
    const files = readdirSync(FLOWS).filter((name) => name.endsWith('.ts'));
    expect(files.length).to.be.above(20);
    const found = files.flatMap((name) => offences(readFileSync(path.join(FLOWS, name), 'utf8')).map((offence) => `flows/${name}: ${offence}`));
    expect(found).to.deep.equal([]);
  });

  it('knows a query when it sees one', () => {
    const queries = [
      "const [locked] = await trx('renewal_charges').where({ id }).forUpdate();",
      "await this.knex('users').where({ id }).first();",
      "await trx.table('orders').update({ state: 2 });",
      "const rows = await this.knex.select('id').from('payments');",
      "await this.knex.raw('select 1');",
      "await sqlRows(trx, 'select id from users where id = $1', [id]);",
      'await OrderModel.query(trx).findById(id);',
      "const text = 'update orders set state = 2';",
    ];
    for (const query of queries) expect(offences(query), query).not.to.be.empty;
    const fine = [
      'return this.knex.transaction(async (trx) => {',
      'return readOnlyTransaction(this.knex, timeoutMs, async (trx) => this.orders.page(query, trx));',
      'const units = order.items.flatMap((item) => Array.from({ length: item.quantity }, (_, unit) => unit));',
      "// trx('renewal_charges') is the renewals module's",
      "await this.renewals.update(charge.id, { status: 'cancelled' }, trx);",
      "this.logger.info({ orderId }, 'order activated');",
    ];
    for (const line of fine) expect(offences(line), line).to.deep.equal([]);
  });
});
