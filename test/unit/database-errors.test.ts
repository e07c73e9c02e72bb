import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, ConflictError, databaseFailure, databaseUnavailable, loadConfig, translateDatabaseError, UnavailableError } from '@subshare/core';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('a database that cannot answer is one typed error (databaseUnavailable)', () => {
  it('recognises the ways pg, knex and Node say the database is gone or too slow', () => {
    const cases: Array<[unknown, string]> = [
      [withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'connection_refused'],
      [withCode('ECONNRESET', 'read ECONNRESET'), 'connection_lost'],
      [withCode('57P01', 'terminating connection due to administrator command'), 'shutting_down'],
      [withCode('57014', 'canceling statement due to statement timeout'), 'timeout'],
      [withCode('08006', 'connection failure'), 'connection_lost'],
      // Class 53, insufficient resources: the disk is full, memory or a limit ran out.
      [withCode('53100', 'could not extend file "base/16384/16385": No space left on device'), 'disk_full'],
      [Object.assign(new Error('DBError'), { nativeError: withCode('53100') }), 'disk_full'],
      [withCode('53200', 'out of memory'), 'insufficient_resources'],
      [withCode('53000', 'insufficient resources'), 'insufficient_resources'],
      [Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }), 'timeout'],
      [new Error('Connection terminated unexpectedly'), 'connection_lost'],
      // knex puts the statement in front of pg's message.
      [new Error('select 1 - Query read timeout'), 'timeout'],
      [new Error('select * from users - Connection terminated unexpectedly'), 'connection_lost'],
      [new Error('timeout expired'), 'timeout'],
      // Objection keeps the driver's error on nativeError; Node groups IPv4/IPv6 refusals in an AggregateError.
      [Object.assign(new Error('DBError'), { nativeError: withCode('57P01') }), 'shutting_down'],
      [new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed'), 'connection_refused'],
    ];
    for (const [error, failure] of cases) {
      expect(databaseFailure(error), String(error)).to.equal(failure);
      const typed = databaseUnavailable(error);
      expect(typed, String(error)).to.be.instanceOf(UnavailableError);
      expect(typed?.code).to.equal('database_unavailable');
      expect(typed?.retryAfterSeconds).to.be.within(1, 60);
    }
  });

  it('leaves statement errors and our own errors alone', () => {
    for (const error of [
      withCode('23505', 'duplicate key'),
      withCode('42P01', 'relation does not exist'),
      new Error('Something else'),
      new ConflictError('exists'),
      null,
      'text',
    ]) {
      expect(databaseFailure(error), String(error)).to.equal(undefined);
      expect(databaseUnavailable(error), String(error)).to.equal(undefined);
    }
  });

  it('translateDatabaseError throws it for an unreachable database and keeps the other translations', () => {
    expect(() => translateDatabaseError(withCode('ECONNREFUSED'))).to.throw(UnavailableError);
    expect(() => translateDatabaseError(withCode('23505'))).to.throw(ConflictError);
    const other = new Error('relation does not exist');
    expect(() => translateDatabaseError(other)).to.throw(other);
  });

  it('reads the pool bounds from the configuration, with defaults', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'subshare-config-'));
    expect(loadConfig({ DATA_DIR: dataDir }).database).to.deep.equal({ statementTimeoutMs: 5_000, acquireTimeoutMs: 3_000, poolMax: 10 });
    const set = loadConfig({ DATA_DIR: dataDir, DATABASE_STATEMENT_TIMEOUT_MS: '20000', DATABASE_ACQUIRE_TIMEOUT_MS: '1500', DATABASE_POOL_MAX: '4' });
    expect(set.database).to.deep.equal({ statementTimeoutMs: 20_000, acquireTimeoutMs: 1_500, poolMax: 4 });
    expect(() => loadConfig({ DATA_DIR: dataDir, DATABASE_POOL_MAX: '0' }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.contains('DATABASE_POOL_MAX');
    expect(() => loadConfig({ DATA_DIR: dataDir, DATABASE_STATEMENT_TIMEOUT_MS: '5s' }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.contains('DATABASE_STATEMENT_TIMEOUT_MS');
  });
});
