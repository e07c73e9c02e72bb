import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Container } from 'inversify';
import { PgBoss } from 'pg-boss';
import {
  buildContainer,
  createLogger,
  createQueues,
  EMAIL_KIND,
  loadConfig,
  NOTIFICATIONS_QUEUES,
  PgBossJobQueue,
  type JobQueue,
  NotificationsService,
  type QueueDefinition,
  type SendJobOptions,
} from '@subshare/core';
import { JOBS, startWorker, type JobDefinition, type WorkerHandle } from '@subshare/worker';
import { harness, testEnv } from '../support/harness.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { waitFor } from '../support/wait.js';

/** Records what would have been queued, and queues nothing: e-mails written with it have no job. */
class RecordingJobQueue implements JobQueue {
  readonly sent: Array<{ queue: string; data: object; options?: SendJobOptions }> = [];
  async send(queue: string, data: object, options?: SendJobOptions): Promise<string> {
    this.sent.push({ queue, data, options });
    return randomUUID();
  }
  async counts(): Promise<[]> {
    return [];
  }
}

interface OutboxRow {
  id: number;
  kind: number;
  user_id: number | null;
  to_address: string;
  status: string;
  attempts: number;
  last_error: string | null;
  message_id: string | null;
  sent_at: Date | null;
  html: string;
  text: string;
  code: string | null;
}

const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'smtp-Pass-9f3c1e';

function job(queue: string): JobDefinition {
  const found = JOBS.find((candidate) => candidate.queue.name === queue);
  if (!found) throw new Error(`the worker has no job for ${queue}`);
  return found;
}

/** Retries a second apart instead of minutes: the settings under test are the shape, not the delays. */
function testQueues(retryLimit: number): QueueDefinition[] {
  const { retryDelayMax: _backoffOnly, ...options } = NOTIFICATIONS_QUEUES.deliver.options;
  const fast = { ...options, retryLimit, retryDelay: 1, retryBackoff: false };
  return [NOTIFICATIONS_QUEUES.deadLetter, { ...NOTIFICATIONS_QUEUES.deliver, options: fast }, { ...NOTIFICATIONS_QUEUES.deliverCode, options: fast }];
}

function logSink(lines: string[]): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
}

function mailContainer(options: { smtpUrl?: string; jobQueue: JobQueue; logs?: string[] }): Container {
  const env = testEnv(harness().db.url, options.smtpUrl ? { SMTP_URL: options.smtpUrl, PUBLIC_URL: 'https://shop.example.test' } : {});
  return buildContainer({
    config: loadConfig(env),
    knex: harness().knex,
    logger: createLogger('debug', logSink(options.logs ?? [])),
    jobQueue: options.jobQueue,
  });
}

/** One pg-boss schema, a container that sends to the test SMTP server, and a worker for the e-mail queues. */
interface MailWorld {
  schema: string;
  boss: PgBoss;
  service: NotificationsService;
  logs: string[];
  close(): Promise<void>;
}

async function openMailWorld(smtpUrl: string, retryLimit: number): Promise<MailWorld> {
  const schema = `email_test_${randomUUID().slice(0, 8)}`;
  const boss = new PgBoss({ connectionString: harness().db.url, schema, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  await createQueues(boss, testQueues(retryLimit));
  const logs: string[] = [];
  const container = mailContainer({ smtpUrl, jobQueue: new PgBossJobQueue(boss), logs });
  const worker: WorkerHandle = await startWorker(boss, container, [
    job(NOTIFICATIONS_QUEUES.deliver.name),
    job(NOTIFICATIONS_QUEUES.deliverCode.name),
    job(NOTIFICATIONS_QUEUES.deadLetter.name),
  ]);
  return {
    schema,
    boss,
    service: container.get(NotificationsService),
    logs,
    async close() {
      await worker.stop();
      await boss.stop({ graceful: false, timeout: 2_000 });
      await harness().knex.raw(`drop schema if exists "${schema}" cascade`);
    },
  };
}

const address = () => `${randomUUID()}@example.test`;

async function outboxRow(id: number): Promise<OutboxRow> {
  return harness().knex('email_outbox').where({ id }).first();
}

/** Waits until the outbox row satisfies `check`, and returns it. */
async function waitForRow(id: number, check: (row: OutboxRow) => boolean, what: string, timeoutMs = 10_000): Promise<OutboxRow> {
  let seen: OutboxRow | undefined;
  await waitFor(
    async () => {
      seen = await outboxRow(id);
      return check(seen);
    },
    { what, timeoutMs },
  );
  return seen as OutboxRow;
}

async function jobsFor(schema: string, outboxId: number, state?: string): Promise<number> {
  const result = await harness().knex.raw(
    `select count(*)::int as n from "${schema}".job where name = ? and data->>'outboxId' = ? ${state ? 'and state = ?' : ''}`,
    [NOTIFICATIONS_QUEUES.deliver.name, String(outboxId), ...(state ? [state] : [])],
  );
  return result.rows[0].n;
}

async function createUser(languageId: 1 | 2 = 1): Promise<{ id: number; email: string }> {
  const email = address();
  const [row] = await harness().knex('users').insert({ email, language_id: languageId }).returning<Array<{ id: number }>>('id');
  return { id: row.id, email };
}

function purchased(to: string, extra: { userId?: number; idempotencyKey?: string; languageId?: 1 | 2 } = {}) {
  return {
    kind: EMAIL_KIND.purchasedActiveSubscribe,
    to,
    languageId: extra.languageId ?? 1,
    userId: extra.userId,
    idempotencyKey: extra.idempotencyKey,
    data: { orderId: 42, platformName: 'Orbitview', endTime: new Date('2027-01-31T12:00:00Z'), profileNumber: 3 },
  } as const;
}

describe('e-mail outbox and delivery (real PostgreSQL, pg-boss and SMTP)', function () {
  let smtp: TestSmtpServer;
  let world: MailWorld;

  before(async () => {
    smtp = await startSmtpServer({ auth: { user: SMTP_USER, pass: SMTP_PASSWORD } });
    world = await openMailWorld(smtp.url, 100);
  });

  after(async () => {
    await world?.close();
    await smtp?.stop();
  });

  it('writes nothing and sends nothing when the transaction that enqueued the e-mail rolls back', async () => {
    const to = address();
    let outboxId = 0;
    await harness()
      .knex.transaction(async (trx) => {
        outboxId = (await world.service.enqueue(purchased(to), trx)).id;
        throw new Error('roll back on purpose');
      })
      .catch((error: Error) => expect(error.message).to.equal('roll back on purpose'));

    expect(outboxId).to.be.greaterThan(0);
    expect(await outboxRow(outboxId)).to.equal(undefined);
    expect(await jobsFor(world.schema, outboxId)).to.equal(0);

    // A later e-mail goes through the same queue; the rolled-back one never shows up.
    const later = address();
    const { id } = await world.service.enqueue(purchased(later));
    await waitFor(async () => (await outboxRow(id)).status === 'sent', { what: 'the committed e-mail to be sent' });
    expect(smtp.messagesTo(later)).to.have.length(1);
    expect(smtp.messagesTo(to)).to.have.length(0);
  });

  it('delivers a committed e-mail exactly once and marks it sent', async () => {
    const user = await createUser();
    const { id, created } = await world.service.enqueue(purchased(user.email, { userId: user.id }));
    expect(created).to.equal(true);
    expect((await outboxRow(id)).status).to.equal('pending');

    const row = await waitForRow(id, (current) => current.status === 'sent', 'the e-mail to be sent');
    await waitFor(async () => (await jobsFor(world.schema, id, 'completed')) === 1, { what: 'the delivery job to complete' });

    const [message, ...others] = smtp.messagesTo(user.email);
    expect(others).to.have.length(0);
    expect(message.user).to.equal(SMTP_USER);
    expect(message.subject).to.equal('Your Orbitview subscription is active (order #42)');
    expect(message.messageId).to.equal(row.message_id);
    expect(message.messageId).to.match(new RegExp(`^<outbox-${id}\\.[0-9a-z]+@localhost>$`));
    expect(message.parsed.headers.get('x-subshare-outbox-id')).to.equal(String(id));
    expect(message.html).to.include(`https://shop.example.test/user/${user.id}`);
    expect(message.text).to.include('Profile number 3');
    expect(row.attempts).to.equal(1);
    expect(row.sent_at).to.be.instanceOf(Date);
    expect(row.user_id).to.equal(user.id);

    // The job may run again (a crash, an expiry): the sent state stops a second send.
    expect(await world.service.deliver(id)).to.equal('already-sent');
    expect(smtp.messagesTo(user.email)).to.have.length(1);
  });

  it('writes one row and sends one e-mail for the same idempotency key, even when the calls race', async () => {
    const to = address();
    const key = `order:${randomUUID()}:purchased`;
    const results = await Promise.all(Array.from({ length: 5 }, () => world.service.enqueue(purchased(to, { idempotencyKey: key }))));
    expect(new Set(results.map((result) => result.id)).size).to.equal(1);
    expect(results.filter((result) => result.created)).to.have.length(1);

    const again = await world.service.enqueue(purchased(to, { idempotencyKey: key }));
    expect(again).to.deep.equal({ id: results[0].id, created: false });
    expect(await harness().knex('email_outbox').where({ idempotency_key: key }).count<Array<{ count: number }>>('id as count')).to.deep.equal([{ count: 1 }]);

    await waitFor(async () => (await jobsFor(world.schema, again.id, 'completed')) === 1, { what: 'the delivery job to complete' });
    expect(await jobsFor(world.schema, again.id)).to.equal(1);
    expect(smtp.messagesTo(to)).to.have.length(1);
  });

  it('keeps the e-mail pending while the SMTP server is down and delivers it once when it is back', async () => {
    await smtp.stop();
    const to = address();
    try {
      const { id } = await world.service.enqueue(purchased(to));
      const failing = await waitForRow(id, (current) => current.attempts >= 2, 'two failed attempts');
      expect(failing.status).to.equal('pending');
      expect(failing.last_error)
        .to.be.a('string')
        .and.match(/ECONNREFUSED|ECONNECTION|ESOCKET/);
      expect(failing.last_error).to.not.include(SMTP_PASSWORD);
      expect(failing.sent_at).to.equal(null);

      // The sweeper finds the e-mail stale but leaves it to its retrying job.
      await harness()
        .knex('email_outbox')
        .where({ id })
        .update({ created_at: harness().knex.raw(`now() - interval '10 minutes'`), last_attempt_at: harness().knex.raw(`now() - interval '10 minutes'`) });
      expect((await world.service.sweep()).requeued).to.equal(0);
      expect(await jobsFor(world.schema, id)).to.equal(1);

      await smtp.start();
      await waitFor(async () => (await outboxRow(id)).status === 'sent', { timeoutMs: 15_000, what: 'delivery after the outage' });
      await waitFor(async () => (await jobsFor(world.schema, id, 'completed')) === 1, { what: 'the delivery job to complete' });
      expect(smtp.messagesTo(to)).to.have.length(1);
      expect((await outboxRow(id)).last_error).to.equal(null);
    } finally {
      await smtp.start();
    }
  });

  it('sends one e-mail when deliver() runs five times at once on the same row', async () => {
    const jobs = new RecordingJobQueue();
    const service = mailContainer({ smtpUrl: smtp.url, jobQueue: jobs }).get(NotificationsService);
    const to = address();
    const { id } = await service.enqueue(purchased(to));
    expect(jobs.sent).to.have.length(1);
    expect(jobs.sent[0].queue).to.equal(NOTIFICATIONS_QUEUES.deliver.name);
    expect(jobs.sent[0].data).to.deep.equal({ outboxId: id });
    expect(jobs.sent[0].options?.singletonKey).to.equal(`email:${id}`);
    expect(jobs.sent[0].options?.trx).to.not.equal(undefined); // queued in the transaction that wrote the row

    const outcomes = await Promise.all(Array.from({ length: 5 }, () => service.deliver(id)));
    expect(outcomes.filter((outcome) => outcome === 'sent')).to.have.length(1);
    expect(outcomes.every((outcome) => ['sent', 'busy', 'already-sent'].includes(outcome))).to.equal(true);
    expect(smtp.messagesTo(to)).to.have.length(1);
    const row = await outboxRow(id);
    expect(row.status).to.equal('sent');
    expect(row.attempts).to.equal(1);
  });

  it('without SMTP_URL keeps the e-mail in the outbox for staff and queues no job', async () => {
    const jobs = new RecordingJobQueue();
    const service = mailContainer({ jobQueue: jobs }).get(NotificationsService);
    const to = address();
    const { id } = await service.enqueue(purchased(to));
    expect(jobs.sent).to.deep.equal([]);
    const row = await outboxRow(id);
    expect(row.status).to.equal('kept');
    expect(row.html).to.include('Orbitview');
    expect(await service.deliver(id)).to.equal('not-pending');
    expect(await service.sweep()).to.deep.equal({ checked: 0, requeued: 0 });

    // The same through a real queue: nothing reaches it.
    const queued = mailContainer({ jobQueue: new PgBossJobQueue(world.boss) }).get(NotificationsService);
    const other = await queued.enqueue(purchased(address()));
    expect((await outboxRow(other.id)).status).to.equal('kept');
    expect(await jobsFor(world.schema, other.id)).to.equal(0);
  });

  it('sweeps a pending e-mail that lost its job into the queue, once', async () => {
    const jobless = mailContainer({ smtpUrl: smtp.url, jobQueue: new RecordingJobQueue() }).get(NotificationsService);
    const to = address();
    const { id } = await jobless.enqueue(purchased(to));
    expect(await jobsFor(world.schema, id)).to.equal(0);

    // Fresh rows belong to the job sent with them.
    expect(await world.service.sweep().then(() => jobsFor(world.schema, id))).to.equal(0);

    await harness()
      .knex('email_outbox')
      .where({ id })
      .update({ created_at: harness().knex.raw(`now() - interval '3 minutes'`) });
    const first = await world.service.sweep();
    expect(first.requeued).to.be.at.least(1);
    await waitFor(async () => (await outboxRow(id)).status === 'sent', { what: 'the swept e-mail to be sent' });
    await world.service.sweep();
    expect(await jobsFor(world.schema, id)).to.equal(1);
    expect(smtp.messagesTo(to)).to.have.length(1);
  });

  it('lists the outbox for staff, shows one e-mail, and clears a sent code from the stored body', async () => {
    const user = await createUser(2);
    const code = String(100_000 + Math.floor(Math.random() * 900_000));
    const { id } = await world.service.enqueue({ kind: EMAIL_KIND.verificationCode, to: user.email, languageId: 2, userId: user.id, data: { code } });
    await world.service.enqueue({ kind: EMAIL_KIND.welcome, to: user.email, languageId: 2, userId: user.id, data: { name: '민지' } });
    await waitFor(async () => (await outboxRow(id)).status === 'sent', { what: 'the code e-mail to be sent' });

    const [message] = smtp.messagesTo(user.email).filter((candidate) => candidate.text.includes(code));
    expect(message.subject).to.equal('subshare 이메일 인증 코드');
    expect(message.html).to.include('lang="ko"');

    const page = await world.service.listOutbox({ userId: user.id, page: 1, limit: 1 });
    expect(page.count).to.equal(2);
    expect(page.pages).to.equal(2);
    expect(page.items).to.have.length(1);
    expect(page.items[0]).to.include({ kind: EMAIL_KIND.welcome, kindName: 'welcome', to: user.email, languageId: 2 });
    expect(page.items[0]).to.not.have.property('html');
    const sentOnly = await world.service.listOutbox({ userId: user.id, status: 'sent', kind: EMAIL_KIND.verificationCode });
    expect(sentOnly.items.map((item) => item.id)).to.deep.equal([id]);

    const stored = await world.service.getOutboxEmail(id, { label: 'test' });
    expect(stored).to.include({ id, status: 'sent', kindName: 'verificationCode', attempts: 1 });
    expect(stored.messageId).to.equal(message.messageId);
    expect(stored.html + stored.text).to.not.include(code);
    expect((await outboxRow(id)).code, 'the code column once sent').to.equal(null);

    await expectRejection(world.service.getOutboxEmail(987_654_321, { label: 'test' }), 'not_found');
    await expectRejection(world.service.listOutbox({ page: 0, limit: 500 }), 'validation');
    await expectRejection(world.service.enqueue({ kind: EMAIL_KIND.verificationCode, to: 'not an address', languageId: 1, data: { code } }), 'validation');

    // Logs say what happened to which outbox row, never the code, the address or the body.
    const logs = world.logs.join('');
    expect(logs).to.include(`"outboxId":${id}`);
    for (const secret of [code, user.email, SMTP_PASSWORD, '민지']) expect(logs).to.not.include(secret);
  });
});

describe('e-mail delivery that runs out of retries', function () {
  let smtp: TestSmtpServer;
  let world: MailWorld;

  before(async () => {
    smtp = await startSmtpServer();
    await smtp.stop(); // its port now refuses connections
    world = await openMailWorld(smtp.url, 1);
  });

  after(async () => {
    await world?.close();
    await smtp?.stop();
  });

  it('marks the e-mail failed after the last retry, and a staff retry delivers it once the server is back', async () => {
    const to = address();
    const { id } = await world.service.enqueue(purchased(to));
    const failed = await waitForRow(id, (current) => current.status === 'failed', 'the e-mail to be marked failed', 15_000);
    expect(failed.attempts).to.equal(2);
    expect(failed.last_error).to.be.a('string').and.not.equal('');

    // The sweeper leaves failed e-mails to staff.
    await harness()
      .knex('email_outbox')
      .where({ id })
      .update({ last_attempt_at: harness().knex.raw(`now() - interval '10 minutes'`) });
    await world.service.sweep();
    expect((await outboxRow(id)).status).to.equal('failed');

    await smtp.start();
    const staff = { label: 'test' };
    expect(await world.service.retry(id, staff)).to.include({ id, queued: true });
    // A second retry queues nothing: the e-mail waits for delivery (or, should the worker have been quicker, is sent).
    const second = await world.service.retry(id, staff).catch((error: { code?: string }) => error);
    if ('queued' in second) expect(second).to.include({ status: 'pending', queued: false });
    else expect(second.code).to.equal('email_not_failed');
    await waitFor(async () => (await outboxRow(id)).status === 'sent', { timeoutMs: 15_000, what: 'the retried e-mail to be sent' });
    expect(smtp.messagesTo(to)).to.have.length(1);
  });
});

async function expectRejection(promise: Promise<unknown>, type: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect((error as { type?: string }).type).to.equal(type);
    return;
  }
  expect.fail(`expected a ${type} error`);
}
