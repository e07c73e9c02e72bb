import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createLogger, DatabaseEvents, freePort } from '@subshare/core';
import { harness } from '../support/harness.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait.js';

/**
 * The process's LISTEN/NOTIFY and session-lock connection against the file's real PostgreSQL:
 * events between two connections (two processes' worth), sent on commit only; a session lock
 * held by one of them; and what happens when PostgreSQL ends that connection (pg_terminate_backend).
 */
describe('database events (LISTEN/NOTIFY and session locks on one connection per process)', () => {
  const logger = createLogger('silent');
  const opened: DatabaseEvents[] = [];
  const events = (connectionString = harness().db.url, timeoutMs = 3_000, heartbeatMs?: number) => {
    const made = new DatabaseEvents({ connectionString, knex: harness().knex, logger, timeoutMs, backoffMs: 50, maxBackoffMs: 500, heartbeatMs });
    opened.push(made);
    return made;
  };
  const channel = () => `test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((made) => made.close()));
  });

  it('delivers an event to every listener of its channel, and only while subscribed', async () => {
    const [first, second] = [events(), events()];
    const name = channel();
    const heardByFirst: string[] = [];
    const heardBySecond: string[] = [];
    const unsubscribeFirst = await first.listen(name, (payload) => heardByFirst.push(payload));
    await second.listen(name, (payload) => heardBySecond.push(payload));
    await second.listen(channel(), (payload) => heardBySecond.push(`other channel: ${payload}`));
    expect(first.connected).to.equal(true);

    await first.notify(name, 'one');
    await waitFor(() => heardByFirst.includes('one') && heardBySecond.includes('one'), { what: 'both listeners to hear "one"' });

    unsubscribeFirst();
    await second.notify(name, 'two');
    await waitFor(() => heardBySecond.includes('two'), { what: 'the second listener to hear "two"' });
    // The second heard "two" after it was sent; the first's connection would have had it by then.
    await second.notify(name, 'three');
    await waitFor(() => heardBySecond.includes('three'), { what: 'the second listener to hear "three"' });
    expect(heardByFirst).to.deep.equal(['one']);
    expect(heardBySecond).to.deep.equal(['one', 'two', 'three']);
  });

  it('sends an event from a transaction when it commits, and never when it rolls back', async () => {
    const sender = events();
    const listener = events();
    const name = channel();
    const heard: string[] = [];
    await listener.listen(name, (payload) => heard.push(payload));

    await harness()
      .knex.transaction(async (trx) => {
        await sender.notify(name, 'rolled back', trx);
        throw new Error('roll back on purpose');
      })
      .catch((error: Error) => expect(error.message).to.equal('roll back on purpose'));
    await harness().knex.transaction(async (trx) => {
      await sender.notify(name, 'committed', trx);
      // Not sent before the commit.
      await sender.notify(name, 'outside, sent first');
    });
    await waitFor(() => heard.includes('committed'), { what: 'the committed event' });
    expect(heard).to.deep.equal(['outside, sent first', 'committed']);
  });

  it('holds a session lock until the connection is lost; then the holder is told, another takes it, and listening resumes', async () => {
    const holder = events();
    const other = events();
    const name = channel();
    const heard: string[] = [];
    let reconnects = 0;
    let losses = 0;
    await holder.listen(name, (payload) => heard.push(payload), { onReconnect: () => (reconnects += 1) });
    holder.onSessionLost(() => (losses += 1));
    const [namespace, id] = [0x7e57, Math.floor(Math.random() * 1e9)];

    expect(await holder.trySessionLock(namespace, id)).to.equal(true);
    expect(await other.trySessionLock(namespace, id)).to.equal(false);
    // The lock lives on the holder's dedicated connection.
    const { rows } = await harness().knex.raw<{ rows: Array<{ pid: number }> }>(
      "select pid from pg_locks where locktype = 'advisory' and classid = ? and objid = ? and objsubid = 2 and granted and database = (select oid from pg_database where datname = current_database())",
      [namespace, id],
    );
    expect(rows).to.have.length(1);

    await harness().knex.raw('select pg_terminate_backend(?)', [rows[0].pid]);
    await waitFor(() => losses === 1, { what: 'the holder to be told its session was lost' });
    expect(await other.trySessionLock(namespace, id)).to.equal(true);

    // The holder re-connects by itself (it listens), listens again and says so.
    await waitFor(() => reconnects === 1, { what: 'the holder to re-connect' });
    expect(holder.connected).to.equal(true);
    expect(await holder.trySessionLock(namespace, id)).to.equal(false);
    await other.notify(name, 'after the loss');
    await waitFor(() => heard.includes('after the loss'), { what: 'an event after the re-connection' });

    await other.releaseSessionLock(namespace, id);
    expect(await holder.trySessionLock(namespace, id)).to.equal(true);
  });

  it('keeps re-connecting while PostgreSQL is away, without throwing, and works once it is back', async function () {
    this.timeout(30_000);
    const url = new URL(harness().db.url);
    const proxy = await startTcpProxy(url.hostname, Number(url.port));
    try {
      const listener = events(proxy.urlFor(harness().db.url), 1_000);
      const name = channel();
      const heard: string[] = [];
      let reconnects = 0;
      let losses = 0;
      await listener.listen(name, (payload) => heard.push(payload), { onReconnect: () => (reconnects += 1) });
      listener.onSessionLost(() => (losses += 1));
      expect(await listener.trySessionLock(0x7e57, 1)).to.equal(true);

      // Stopped: the connection is cut and new ones are refused.
      await proxy.refuse();
      await waitFor(() => losses === 1 && !listener.connected, { what: 'the listener to see the loss' });
      expect(await listener.trySessionLock(0x7e57, 1)).to.equal(false);
      await proxy.resume();
      await waitFor(() => reconnects === 1 && listener.connected, { what: 'the listener to re-connect once PostgreSQL is back' });
      await listener.notify(name, 'back');
      await waitFor(() => heard.includes('back'), { what: 'an event once back' });

      // Frozen (no answer at all): a lock is refused within the timeout, the connection counts as lost.
      proxy.freeze();
      const started = Date.now();
      expect(await listener.trySessionLock(0x7e57, 3)).to.equal(false);
      expect(Date.now() - started).to.be.below(10_000);
      expect(losses).to.equal(2);
      await proxy.resume();
      await waitFor(() => reconnects === 2 && listener.connected, { what: 'the listener to re-connect after the freeze' });
    } finally {
      await proxy.close();
    }
  });

  it('a listener whose connection goes silent finds out by its heartbeat, re-connects once the server answers, and hears events again', async function () {
    this.timeout(30_000);
    const url = new URL(harness().db.url);
    const proxy = await startTcpProxy(url.hostname, Number(url.port));
    try {
      const listener = events(proxy.urlFor(harness().db.url), 500, 200);
      const name = channel();
      const heard: string[] = [];
      let reconnects = 0;
      await listener.listen(name, (payload) => heard.push(payload), { onReconnect: () => (reconnects += 1) });
      expect(listener.connected).to.equal(true);
      // Nothing is asked of the connection but the heartbeat: it alone can notice the silence.
      proxy.freeze();
      await waitFor(() => !listener.connected, { what: 'the heartbeat to find the connection silent' });
      await proxy.resume();
      await waitFor(() => reconnects === 1 && listener.connected, { what: 'the listener to re-connect' });
      await listener.notify(name, 'after the silence');
      await waitFor(() => heard.includes('after the silence'), { what: 'an event after the silence' });
    } finally {
      await proxy.close();
    }
  });

  it('answers at once that no lock is had when the server cannot be reached, and listen does not hang', async () => {
    const url = new URL(harness().db.url);
    url.port = String(await freePort());
    const unreachable = events(url.toString(), 1_000);
    await unreachable.listen(channel(), () => undefined);
    expect(unreachable.connected).to.equal(false);
    expect(await unreachable.trySessionLock(0x7e57, 2)).to.equal(false);
  });
});
