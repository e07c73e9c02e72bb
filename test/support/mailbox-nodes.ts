/**
 * Two or more "processes" of the shop on one mailbox (test/serial/mailbox-ownership.test.ts and
 * test/integration/mailbox-ownership.test.ts): each node is a container with its own database
 * events connection, as a process has, on the file's real PostgreSQL and a real Dovecot.
 */
import { Writable } from 'node:stream';
import type { Container } from 'inversify';
import {
  buildContainer,
  createLogger,
  MAILBOX_LOCK_NAMESPACE,
  SHIPPED_ALERT_RULES,
  SystemClock,
  TOKENS,
  AccountsService,
  DatabaseEvents,
  type JobQueue,
  MailboxReaderService,
  type MailboxTarget,
} from '@subshare/core';
import { containerWith } from './containers.js';
import { startDovecot, type TestDovecot } from './dovecot.js';
import { harness } from './harness.js';
import { mailboxAccount, mailboxConfig } from './mailboxes.js';

/** A process's worth of the shop: its own container, so its own events connection (session) and reader. */
export interface Node {
  container: Container;
  reader: MailboxReaderService;
  /** The messages (msg) this node logged. */
  said(): Array<Record<string, unknown>>;
}

/** Starts Dovecot before the file's tests and closes the nodes and Dovecot after them. */
export function useMailboxNodes() {
  let dovecot: TestDovecot;
  const nodes: Node[] = [];

  before(async () => {
    dovecot = await startDovecot();
  });

  after(async () => {
    for (const node of nodes) await node.reader.close();
    for (const node of nodes) await node.container.get(DatabaseEvents).close();
    await dovecot?.destroy();
  });

  /** `eventsUrl`: where this node's events connection goes (the pool stays on the file's database). */
  function node(eventsUrl?: string, credentialsKey?: Buffer): Node {
    let text = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const config = mailboxConfig(dovecot.url, { timeoutSeconds: 5 });
    const options = { config: credentialsKey ? { ...config, credentialsKey } : config, clock: new SystemClock(), logger: createLogger('debug', sink) };
    const container = eventsUrl
      ? buildContainer({ ...options, knex: harness().knex, jobQueue: harness().container.get<JobQueue>(TOKENS.JobQueue), databaseUrl: eventsUrl })
      : containerWith(options);
    const made: Node = {
      container,
      reader: container.get(MailboxReaderService),
      said: () =>
        text
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as Record<string, unknown>),
    };
    nodes.push(made);
    return made;
  }

  async function mailbox(): Promise<{ target: MailboxTarget; email: string }> {
    const account = await mailboxAccount(harness().container, dovecot, 0);
    const login = await harness().container.get(AccountsService).mailboxLogin(account.accountId);
    if (!login) throw new Error('no mailbox');
    return {
      email: account.email,
      target: {
        mailboxId: login.mailboxId,
        login: { address: login.address, password: login.password },
        recipients: [login.accountEmail, login.address],
        // Links are handed out for Netflix's senders and hosts only (issue 33).
        platform: SHIPPED_ALERT_RULES.netflix,
      },
    };
  }

  const reads = (of: Node, mailboxId: number) => of.said().filter((line) => line.msg === 'mailbox read' && line.mailboxId === mailboxId).length;
  /** The session holding the mailbox's lock in this file's database (other files' databases have mailboxes of the same ids). */
  const lockHolder = async (mailboxId: number): Promise<number | undefined> => {
    const { rows } = await harness().knex.raw<{ rows: Array<{ pid: number }> }>(
      "select pid from pg_locks where locktype = 'advisory' and classid = ? and objid = ? and objsubid = 2 and granted and database = (select oid from pg_database where datname = current_database())",
      [MAILBOX_LOCK_NAMESPACE, mailboxId],
    );
    return rows[0]?.pid;
  };
  const recently = () => new Date(Date.now() - 60_000);

  return {
    /** The file's Dovecot (started before its tests). */
    get dovecot() {
      return dovecot;
    },
    node,
    mailbox,
    reads,
    lockHolder,
    recently,
  };
}
