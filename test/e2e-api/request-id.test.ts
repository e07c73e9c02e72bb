/**
 * Request ids: one id follows a purchase from the payment notification to the activation e-mail.
 * The shop here has its own logger (kept in memory, as JSON lines), its own pg-boss schema and its
 * own worker, so the jobs this test's requests send are run, and logged, by this worker only.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import type { Express } from 'express';
import type { Container } from 'inversify';
import type { PgBoss } from 'pg-boss';
import {
  buildContainer,
  createLogger,
  createPgBoss,
  createQueues,
  loadConfig,
  PgBossJobQueue,
  JOB_DECLARATIONS,
  REQUEST_ID_PATTERN,
  AccountsService,
} from '@subshare/core';
import { createApp } from '@subshare/http';
import { startWorker, type WorkerHandle } from '@subshare/worker';
import { api, loginAs } from '../support/agent.js';
import { harness, testEnv } from '../support/harness.js';
import { createPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

interface LogLine {
  msg: string;
  level: number;
  requestId?: string;
  queue?: string;
  [key: string]: unknown;
}

describe('request ids (X-Request-Id, every log line, the jobs a request sends)', function () {
  this.timeout(60_000);
  const schema = `pgboss_reqid_${randomBytes(4).toString('hex')}`;
  let boss: PgBoss;
  let worker: WorkerHandle;
  let container: Container;
  let app: Express;
  let written = '';

  const lines = (): LogLine[] =>
    written
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
  const linesOf = (requestId: string) => lines().filter((line) => line.requestId === requestId);

  before(async () => {
    const { db, knex, config: shared, clock, smtp } = harness();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const logger = createLogger('debug', sink);
    // Same secrets as the harness: accounts made through its services decrypt here too.
    const config = {
      ...loadConfig(testEnv(db.url, { SMTP_URL: smtp.url, TRUST_PROXY: 'loopback' })),
      tokenSecret: shared.tokenSecret,
      credentialsKey: shared.credentialsKey,
    };
    boss = createPgBoss(db.url, { schema, supervise: false, logger });
    await boss.start();
    await createQueues(boss, JOB_DECLARATIONS);
    container = buildContainer({ config, knex, logger, jobQueue: new PgBossJobQueue(boss), clock });
    app = createApp(container, { accessLog: true });
    worker = await startWorker(boss, container);
  });

  after(async () => {
    await worker?.stop();
    await boss?.stop({ graceful: false, timeout: 2_000 });
    await harness().knex.raw('drop schema if exists ?? cascade', [schema]);
  });

  it('follows a purchase from the payment notification to the activation e-mail', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    // Made through this shop, and its 'account-created' job (which tries waiting orders) done
    // before the payment: otherwise it could activate the order first, under no request id.
    await container
      .get(AccountsService)
      .createAccount(
        { label: 'test' },
        { platformId: platform.id, email: `acct-${randomUUID().slice(0, 12)}@example.test`, password: 'pw-123456', slotsCount: 2, femail: 'fw@example.test' },
      );
    await waitFor(
      async () => {
        // This shop's own pg-boss, through its API (findJobs), not its tables.
        const jobs = await boss.findJobs('account-created', { limit: 1_000 });
        return jobs.every((job) => !['created', 'retry', 'active'].includes(job.state));
      },
      { what: "the account's account-created job" },
    );
    const buyer = await loginAs('user', { app });
    const { body: order } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({
        platformId: platform.id,
        typeId: platform.typeId,
        durationId: platform.durationId,
        quantity: 1,
        userId: buyer.id,
        languageId: 1,
        currency: 'EUR',
      })
      .expect(200);
    const { body: checkout } = await api(app).post('/api/payment/createcheckoutsessioncoinpal').set(buyer.auth).send({ orderId: order.id }).expect(200);
    const token = decodeURIComponent(new URL(checkout.url).pathname.split('/').pop()!);

    const requestId = `lb-${randomUUID()}`;
    const paid = await api(app).post('/api/webhook/demo').set('X-Request-Id', requestId).type('form').send({ token, outcome: 'paid' }).expect(303);
    expect(paid.headers['x-request-id']).to.equal(requestId);

    // The activation e-mail reaches the SMTP server, sent by this test's worker.
    const mail = await harness().mailTo(buyer.email);
    expect(mail.subject).to.be.a('string');
    const outboxId = Number(mail.parsed.headers.get('x-subshare-outbox-id'));
    const sent = await waitFor(() => linesOf(requestId).find((line) => line.msg === 'e-mail sent'), { what: "the delivery's 'e-mail sent' line" });
    expect(sent.outboxId, 'the line of this e-mail').to.equal(outboxId);
    const done = await waitFor(() => linesOf(requestId).find((line) => line.msg === 'job done' && line.queue === 'email-deliver'), {
      what: "the delivery job's 'job done' line",
    });
    expect(done.jobId).to.be.a('string');

    const mine = linesOf(requestId);
    const messages = mine.map((line) => line.msg);
    expect(messages, 'the access log line of the notification').to.include('request completed');
    expect(messages, "the activation job's line").to.include('activation ran');
    expect(mine.find((line) => line.msg === 'activation ran')!.orderId).to.equal(order.id);
    expect(mine.some((line) => line.msg === 'job done' && line.queue === 'order-activate')).to.equal(true);
    // Each job the notification caused carried the id in its data.
    const queues: string[] = [];
    for (const { name } of JOB_DECLARATIONS) {
      if ((await boss.findJobs(name, { data: { requestId }, limit: 1_000 })).length > 0) queues.push(name);
    }
    expect(queues).to.include('order-activate');
    expect(queues.some((name: string) => name.startsWith('email-deliver'))).to.equal(true);
  });

  it('gives a request without an id a new one, echoes it, and puts it on the access log line', async () => {
    const res = await api(app).get('/api/user/checkemail').query({ email: 'nobody-here@example.test' }).expect(200);
    const id = res.headers['x-request-id'];
    expect(id).to.match(REQUEST_ID_PATTERN);
    const logged = await waitFor(() => linesOf(id).find((line) => line.msg === 'request completed'), { what: 'the access log line' });
    expect(logged.req).to.deep.equal({ method: 'GET', path: '/api/user/checkemail' });
  });

  it('replaces an offered id that is too long or has characters outside [A-Za-z0-9._:-]', async () => {
    const offered = ['a'.repeat(65), 'has space', 'quote"d', 'semi;colon', 'percent%0D%0Aencoded', 'ünïcode', 'new\tline'];
    for (const value of offered) {
      const res = await api(app).get('/healthz').set('X-Request-Id', value).expect(200);
      const echoed = res.headers['x-request-id'];
      expect(echoed, JSON.stringify(value)).to.not.equal(value);
      expect(echoed, JSON.stringify(value)).to.match(REQUEST_ID_PATTERN);
    }
    // The longest and the odd-but-allowed pass unchanged.
    for (const value of ['b'.repeat(64), 'trace:01.a_b-C']) {
      expect((await api(app).get('/healthz').set('X-Request-Id', value).expect(200)).headers['x-request-id']).to.equal(value);
    }
  });
});
