import { expect } from 'chai';
import { pgbenchStatements, shapeDiff, statementShape } from '../support/sql-shapes.js';

/** The shapes journey-order-reference.test.ts compares: one statement's verb and table, whatever its form. */
describe('statement shapes (the shop against bench/journey-order.sql)', () => {
  it('names the verb and the table a statement works on, a CTE by its first change, a read by its outer table', () => {
    const cases: Array<[string, string]> = [
      ['BEGIN;', 'begin'],
      ['insert into "money_events" ("kind") values ($1) on conflict ("provider", "event_key") do nothing', 'insert money_events'],
      ['update "payments" set "status" = $1 where id = $2 returning id', 'update payments'],
      ['delete from "checkout_claims" where "order_id" = $1', 'delete checkout_claims'],
      ['with o as (insert into orders ("user_id") values ($1) returning *), i as (insert into order_items select 1) select o.* from o', 'insert orders'],
      [
        'WITH next AS (SELECT j.id FROM queues.task j WHERE j.name = $1 FOR UPDATE OF j SKIP LOCKED) UPDATE queues.task j SET state = $2 FROM next',
        'update queues.task',
      ],
      [
        "select o.*, coalesce((select json_agg(i) from order_items i where i.order_id = o.id), '[]') as items from orders o where o.id = $1 for update of o",
        'select orders for update',
      ],
      ['select * from subscriptions where ends_at > $1 order by ends_at, id for update', 'select subscriptions for update'],
      ['select "payments".*, exists (select 1 from refunds where refunds.payment_id = payments.id) as second from "payments"', 'select payments'],
      ['select * from claim_first_free_slot($1, $2)', 'select claim_first_free_slot'],
      ['select pg_advisory_xact_lock(hashtext($1))', 'select pg_advisory_xact_lock'],
      ["insert into checkout_claims (token) values ('a;b') on conflict (order_id) do update set token = excluded.token", 'insert checkout_claims'],
    ];
    for (const [sql, shape] of cases) expect(statementShape(sql), sql).to.equal(shape);
  });

  it("reads a pgbench script's statements, without its comments and meta-commands", () => {
    const script = [
      '-- a comment',
      '\\set user random(1, 9)',
      'begin;',
      'select 1',
      '  from users;',
      'select id from orders \\gset order_',
      'commit;',
      '',
    ].join('\n');
    expect(pgbenchStatements(script).map(statementShape)).to.deep.equal(['begin', 'select users', 'select orders', 'commit']);
    expect(() => pgbenchStatements('select 1 from users')).to.throw(/without its end/);
  });

  it('shows what one list of shapes has that the other has not, and nothing when they are the same', () => {
    expect(shapeDiff(['begin', 'select orders', 'commit'], ['begin', 'select orders', 'commit'])).to.deep.equal([]);
    expect(shapeDiff(['begin', 'insert money_events', 'commit'], ['begin', 'update orders', 'commit'])).to.deep.equal([
      '  begin',
      '- insert money_events',
      '+ update orders',
      '  commit',
    ]);
  });
});
