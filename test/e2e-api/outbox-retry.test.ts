import { expect } from 'chai';
import { EMAIL_KIND } from '@subshare/core';
import { api, createUser, loginAs, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

const RETRY = '/api/email/outbox/retry';

/**
 * The outbox screen's calls (issue 15): staff read the outbox and its e-mails with a one-time
 * code masked, and retry a failed e-mail, once however often the button is pressed. The file's
 * worker starts only when a test needs e-mails delivered, so an e-mail can be failed first.
 */
describe('the outbox for staff (GET /api/email/outbox[/:id], POST /api/email/outbox/retry)', function () {
  this.timeout(60_000);
  const knex = () => harness().knex;
  const row = (id: number) => knex()('email_outbox').where({ id }).first();
  let moderator: TestUser;

  before(async () => {
    moderator = await loginAs('moderator');
  });

  /** A sign-up code e-mail to a new unverified buyer, written and not delivered (no worker yet), then marked failed as the dead letter would. */
  async function failedCodeEmail(): Promise<{ id: number; code: string; to: string }> {
    const buyer = await loginAs('user', { verified: false });
    await api().post('/api/user/sendverificationcode').set(buyer.auth).send({ email: buyer.email }).expect(200);
    const email = await knex()('email_outbox').where({ user_id: buyer.id, kind: EMAIL_KIND.verificationCode }).first();
    expect(email.code, 'the code waits in its column').to.match(/^\d{6}$/);
    await knex()('email_outbox').where({ id: email.id }).update({ status: 'failed', attempts: 2, last_error: '421 try later' });
    return { id: email.id, code: email.code, to: buyer.email };
  }

  /** Everything staff can read of an e-mail: its line in the list and its preview. */
  async function staffView(id: number, to: string): Promise<string> {
    const list = await api().get('/api/email/outbox').set(moderator.auth).query({ limit: 100 }).expect(200);
    const line = list.body.items.find((item: { id: number }) => item.id === id);
    expect(line, 'the e-mail in the list').to.include({ to, kind: EMAIL_KIND.verificationCode });
    const preview = await api().get(`/api/email/outbox/${id}`).set(moderator.auth).expect(200);
    return JSON.stringify(line) + JSON.stringify(preview.body);
  }

  it('refuses a buyer (403), wrong input (400), an unknown e-mail (404)', async () => {
    const buyer = await loginAs('user');
    await api().post(RETRY).send({ id: 1 }).expect(401);
    await api().post(RETRY).set(buyer.auth).send({ id: 1 }).expect(403);
    await api().get('/api/email/outbox').set(buyer.auth).expect(403);
    for (const body of [{}, { id: 'x' }, { id: -1 }, { id: 1.5 }, { id: [1] }, { id: { $gt: 0 } }]) {
      const res = await api().post(RETRY).set(moderator.auth).send(body).expect(400);
      expect(res.body.errors, JSON.stringify(body)).to.have.property('id');
    }
    const proto = await api()
      .post(RETRY)
      .set(moderator.auth)
      .set('Content-Type', 'application/json')
      .send('{"id":1,"__proto__":{"status":"failed"}}')
      .expect(400);
    expect(proto.body.code).to.equal('forbidden_key');
    expect((await api().post(RETRY).set(moderator.auth).send({ id: 2_000_000_000 }).expect(404)).body.code).to.equal('email_not_found');
  });

  it('the list and the preview of a failed code e-mail show it masked, never the code', async () => {
    const { id, code, to } = await failedCodeEmail();
    const before = await staffView(id, to);
    expect(before).to.contain('••••••');
    expect(before).to.not.contain(code);
    expect(before).to.contain('421 try later');
  });

  it('a double click on retry (two at once) sends a failed e-mail once, with its code, and audits one retry', async () => {
    const { id, code, to } = await failedCodeEmail();
    const answers = await Promise.all([0, 1].map(() => api().post(RETRY).set(moderator.auth).send({ id })));
    expect(answers.map((res) => res.status)).to.deep.equal([200, 200]);
    expect(answers.map((res) => res.body.queued).sort()).to.deep.equal([false, true]);
    for (const res of answers) expect(res.body).to.include({ id, status: 'pending' });

    // The worker now runs both the e-mail's first job and the retry's: one e-mail arrives.
    await harness().startWorker();
    const mail = await harness().mailTo(to);
    expect(mail.text, 'the buyer gets the code').to.contain(code);
    await waitFor(async () => (await row(id)).status === 'sent', { what: 'the retried e-mail marked sent' });
    // A third click on the sent e-mail: refused, nothing sent.
    expect((await api().post(RETRY).set(moderator.auth).send({ id }).expect(409)).body.code).to.equal('email_not_failed');
    expect(harness().smtp.messagesTo(to)).to.have.length(1);

    const after = await staffView(id, to);
    expect(after).to.not.contain(code);
    const log = await api()
      .get('/api/audit/log')
      .set((await loginAs('admin')).auth)
      .query({ action: 'email.retry', targetType: 'email', targetId: String(id) })
      .expect(200);
    expect(log.body).to.have.length(1);
    expect(log.body[0]).to.deep.include({ actor: { userId: moderator.id, label: moderator.email } });
    expect(log.body[0].details).to.deep.equal({ kind: EMAIL_KIND.verificationCode, attempts: 2 });
  });

  it('a kept e-mail (no SMTP server) is not retried', async () => {
    const user = await createUser();
    const [kept] = await knex()('email_outbox')
      .insert({
        kind: 0,
        user_id: user.id,
        to_address: user.email,
        language_id: 1,
        subject: 'Welcome',
        html: '<p>Welcome</p>',
        text: 'Welcome',
        status: 'kept',
      })
      .returning('id');
    expect((await api().post(RETRY).set(moderator.auth).send({ id: kept.id }).expect(409)).body.code).to.equal('email_not_failed');
  });
});
