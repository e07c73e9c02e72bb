import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { CredentialsCipher } from '@subshare/core';
import { api, loginAs, uniqueEmail, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { tracedApp } from '../support/containers.js';

const CIPHERTEXT = /^v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]*$/;
const INSERT = '/api/subscribe/insert';
const CREATE_MAILBOX = '/api/subscribe/createbemail';
const LIST_MAILBOXES = '/api/subscribe/getbemails';

const cipher = () => new CredentialsCipher(harness().config.credentialsKey);
const uniquePassword = () => `pw-${randomUUID().slice(0, 10)}`; // 13 characters
const accountPayload = (overrides: Record<string, unknown> = {}) => ({
  email: uniqueEmail('acct'),
  password: uniquePassword(),
  platformId: 1,
  slotsCount: 4,
  femail: uniqueEmail('forward'),
  ...overrides,
});

async function auditEntries(action: string, actorUserId: number) {
  return harness().knex('audit_log').where({ action, actor_user_id: actorUserId }).orderBy('id');
}

describe('platform accounts and mailboxes (subscribe/insert, createbemail, getbemails)', () => {
  let admin: TestUser;
  let moderator: TestUser;
  let buyer: TestUser;

  before(async () => {
    [admin, moderator, buyer] = await Promise.all([loginAs('admin'), loginAs('moderator'), loginAs('user')]);
  });

  describe('an admin', () => {
    it('creates an account: the answer has no password, the row holds only ciphertext, the audit entry no password', async () => {
      const payload = accountPayload({ email: uniqueEmail('Mixed.Case').toUpperCase(), slotsCount: 5 });
      const res = await api().post(INSERT).set(admin.auth).send(payload).expect(200);
      expect(res.body).to.deep.equal({
        id: res.body.id,
        platformId: 1,
        email: payload.email.toLowerCase(),
        slotsCount: 5,
        femail: payload.femail,
        mailboxId: null,
      });

      const row = await harness().knex('platform_accounts').where({ id: res.body.id }).first();
      expect(row.password_encrypted).to.match(CIPHERTEXT);
      expect(row.password_encrypted).to.not.contain(payload.password);
      expect(JSON.stringify(row)).to.not.contain(payload.password);
      expect(cipher().decrypt(row.password_encrypted)).to.equal(payload.password);
      expect(row).to.include({ platform_id: 1, login_email: payload.email.toLowerCase(), slots_count: 5, forwarding_email: payload.femail });

      const [entry] = (await auditEntries('account.create', admin.id)).filter((e) => e.target_id === String(res.body.id));
      expect(entry).to.include({ actor_label: admin.email, target_type: 'platform_account' });
      expect(entry.details).to.deep.equal({ platformId: 1, email: payload.email.toLowerCase(), slotsCount: 5, femail: payload.femail, mailboxId: null });
      expect(JSON.stringify(entry)).to.not.contain(payload.password);
    });

    it('creates a mailbox on MAILBOX_DOMAIN with a strong generated password, shown once, stored encrypted, audited without it', async () => {
      const res = await api().get(CREATE_MAILBOX).set(admin.auth).expect(200);
      expect(res.body).to.have.all.keys('id', 'email', 'password', 'platformId');
      expect(res.body.platformId).to.equal(null);
      expect(res.body.email).to.match(/^[a-z]+-[a-z]+-\d{4}@mail\.localhost$/);
      expect(res.body.password).to.have.length.of.at.least(20);
      expect(res.body.password).to.match(/[A-Z]/).and.to.match(/[a-z]/).and.to.match(/[0-9]/);

      const row = await harness().knex('mailboxes').where({ id: res.body.id }).first();
      expect(row.email).to.equal(res.body.email);
      expect(row.password_encrypted).to.match(CIPHERTEXT);
      expect(row.password_encrypted).to.not.contain(res.body.password);
      expect(cipher().decrypt(row.password_encrypted)).to.equal(res.body.password);

      const [entry] = (await auditEntries('mailbox.create', admin.id)).filter((e) => e.target_id === String(res.body.id));
      expect(entry.details).to.deep.equal({ email: res.body.email, platformId: null });
      expect(JSON.stringify(entry)).to.not.contain(res.body.password);

      const second = await api().get(CREATE_MAILBOX).set(admin.auth).expect(200);
      expect(second.body.email).to.not.equal(res.body.email);
      expect(second.body.password).to.not.equal(res.body.password);
    });

    it('assigns a new mailbox to a platform given as plaformId (the spec spelling) or platformId', async () => {
      const spelled = await api().get(CREATE_MAILBOX).query({ plaformId: 2 }).set(admin.auth).expect(200);
      expect(spelled.body.platformId).to.equal(2);
      const plain = await api().get(CREATE_MAILBOX).query({ platformId: 3 }).set(admin.auth).expect(200);
      expect(plain.body.platformId).to.equal(3);
      expect((await harness().knex('mailboxes').where({ id: spelled.body.id }).first()).platform_id).to.equal(2);
    });

    it("links the mailbox whose address is the account's login e-mail, and gives it to the platform", async () => {
      const mailbox = (await api().get(CREATE_MAILBOX).set(admin.auth).expect(200)).body;
      const res = await api()
        .post(INSERT)
        .set(admin.auth)
        .send(accountPayload({ email: mailbox.email, platformId: 4 }))
        .expect(200);
      expect(res.body.mailboxId).to.equal(mailbox.id);
      expect((await harness().knex('mailboxes').where({ id: mailbox.id }).first()).platform_id).to.equal(4);
    });

    it('refuses a second account with the same login e-mail on the same platform (409), not on another platform', async () => {
      const payload = accountPayload();
      await api().post(INSERT).set(admin.auth).send(payload).expect(200);
      const again = await api()
        .post(INSERT)
        .set(admin.auth)
        .send({ ...payload, email: payload.email.toUpperCase(), password: uniquePassword() })
        .expect(409);
      expect(again.body).to.deep.equal({ message: 'This platform already has an account with this login e-mail.', code: 'account_exists' });
      await api()
        .post(INSERT)
        .set(admin.auth)
        .send({ ...payload, platformId: 2 })
        .expect(200);
      expect(await harness().knex('platform_accounts').where({ login_email: payload.email }).count<Array<{ count: number }>>('id as count')).to.deep.equal([
        { count: 2 },
      ]);
    });

    it('gets 404 for a platform that does not exist, on every call', async () => {
      const insert = await api()
        .post(INSERT)
        .set(admin.auth)
        .send(accountPayload({ platformId: 999_999 }))
        .expect(404);
      expect(insert.body.code).to.equal('platform_not_found');
      expect((await api().get(CREATE_MAILBOX).query({ plaformId: 999_999 }).set(admin.auth).expect(404)).body.code).to.equal('platform_not_found');
      expect((await api().get(LIST_MAILBOXES).query({ plaformId: 999_999 }).set(admin.auth).expect(404)).body.code).to.equal('platform_not_found');
    });
  });

  describe('the spec rules for a new account (section 5), per field', () => {
    const refusedFields = async (overrides: Record<string, unknown>) => {
      const res = await api().post(INSERT).set(admin.auth).send(accountPayload(overrides)).expect(400);
      expect(res.body.code).to.equal('validation');
      return Object.keys(res.body.errors).sort();
    };

    it('requires every field', async () => {
      const res = await api().post(INSERT).set(admin.auth).send({}).expect(400);
      expect(Object.keys(res.body.errors).sort()).to.deep.equal(['email', 'femail', 'password', 'platformId', 'slotsCount']);
    });

    it('slotsCount from 1 to 20', async () => {
      expect(await refusedFields({ slotsCount: 0 })).to.deep.equal(['slotsCount']);
      expect(await refusedFields({ slotsCount: 21 })).to.deep.equal(['slotsCount']);
      expect(await refusedFields({ slotsCount: 2.5 })).to.deep.equal(['slotsCount']);
      expect(await refusedFields({ slotsCount: 'many' })).to.deep.equal(['slotsCount']);
      await api()
        .post(INSERT)
        .set(admin.auth)
        .send(accountPayload({ slotsCount: 1 }))
        .expect(200);
      await api()
        .post(INSERT)
        .set(admin.auth)
        .send(accountPayload({ slotsCount: 20 }))
        .expect(200);
    });

    it('password from 6 to 18 characters', async () => {
      expect(await refusedFields({ password: '12345' })).to.deep.equal(['password']);
      expect(await refusedFields({ password: 'x'.repeat(19) })).to.deep.equal(['password']);
      await api()
        .post(INSERT)
        .set(admin.auth)
        .send(accountPayload({ password: '123456' }))
        .expect(200);
      await api()
        .post(INSERT)
        .set(admin.auth)
        .send(accountPayload({ password: 'y'.repeat(18) }))
        .expect(200);
    });

    it('valid login and forwarding e-mails, and a platform', async () => {
      expect(await refusedFields({ femail: 'not-an-email' })).to.deep.equal(['femail']);
      expect(await refusedFields({ email: 'nobody@' })).to.deep.equal(['email']);
      expect(await refusedFields({ platformId: 0 })).to.deep.equal(['platformId']);
      expect(await refusedFields({ platformId: 'netflix' })).to.deep.equal(['platformId']);
    });

    it('a refused payload leaves no row and no audit entry behind', async () => {
      const payload = accountPayload({ slotsCount: 21 });
      await api().post(INSERT).set(admin.auth).send(payload).expect(400);
      expect(await harness().knex('platform_accounts').where({ login_email: payload.email })).to.have.length(0);
      expect(await harness().knex('audit_log').whereRaw("details->>'email' = ?", [payload.email])).to.have.length(0);
    });
  });

  describe('getbemails', () => {
    it("lists the platform's and the unassigned mailboxes with their passwords, not other platforms', and audits the reveal", async () => {
      const mine = (await api().get(CREATE_MAILBOX).query({ plaformId: 5 }).set(admin.auth).expect(200)).body;
      const unassigned = (await api().get(CREATE_MAILBOX).set(admin.auth).expect(200)).body;
      const elsewhere = (await api().get(CREATE_MAILBOX).query({ plaformId: 6 }).set(admin.auth).expect(200)).body;

      const res = await api().get(LIST_MAILBOXES).query({ plaformId: 5 }).set(moderator.auth).expect(200);
      expect(res.body).to.be.an('array');
      expect(res.body).to.deep.include({ id: mine.id, email: mine.email, password: mine.password, platformId: 5 });
      expect(res.body).to.deep.include({ id: unassigned.id, email: unassigned.email, password: unassigned.password, platformId: null });
      expect(res.body.map((m: { id: number }) => m.id)).to.not.include(elsewhere.id);
      expect(res.body.every((m: { platformId: number | null }) => m.platformId === 5 || m.platformId === null)).to.equal(true);

      const entries = (await auditEntries('mailbox.reveal', moderator.id)).filter((e) => e.target_id === '5');
      expect(entries).to.have.length(1);
      expect(entries[0]).to.include({ actor_label: moderator.email, target_type: 'platform', target_id: '5' });
      expect(entries[0].details.mailboxIds).to.deep.equal(res.body.map((m: { id: number }) => m.id));
      expect(JSON.stringify(entries[0])).to.not.contain(mine.password);
    });

    it('accepts platformId as well, and needs one of the two', async () => {
      const res = await api().get(LIST_MAILBOXES).query({ platformId: 6 }).set(admin.auth).expect(200);
      expect(res.body.every((m: { platformId: number | null }) => m.platformId === 6 || m.platformId === null)).to.equal(true);
      const missing = await api().get(LIST_MAILBOXES).set(admin.auth).expect(400);
      expect(missing.body.errors).to.have.property('plaformId');
      const garbage = await api().get(LIST_MAILBOXES).query({ plaformId: 'abc' }).set(admin.auth).expect(400);
      expect(garbage.body.errors).to.have.property('plaformId');
      await api().get(LIST_MAILBOXES).query({ plaformId: 5, platformId: 6 }).set(admin.auth).expect(400);
    });
  });

  describe('who may call', () => {
    it('a moderator lists mailboxes but may not create accounts or mailboxes (403)', async () => {
      await api().get(LIST_MAILBOXES).query({ plaformId: 1 }).set(moderator.auth).expect(200);
      expect((await api().post(INSERT).set(moderator.auth).send(accountPayload()).expect(403)).body.code).to.equal('forbidden');
      await api().get(CREATE_MAILBOX).set(moderator.auth).expect(403);
    });

    it('a buyer gets 403 and nobody without a token gets anything but 401', async () => {
      const payload = accountPayload();
      await api().post(INSERT).set(buyer.auth).send(payload).expect(403);
      await api().get(CREATE_MAILBOX).set(buyer.auth).expect(403);
      await api().get(LIST_MAILBOXES).query({ plaformId: 1 }).set(buyer.auth).expect(403);
      expect((await api().post(INSERT).send(payload).expect(401)).body.code).to.equal('missing_token');
      await api().get(CREATE_MAILBOX).expect(401);
      await api().get(LIST_MAILBOXES).query({ plaformId: 1 }).expect(401);
      expect(await harness().knex('platform_accounts').where({ login_email: payload.email })).to.have.length(0);
    });
  });

  it('never writes a password to the logs, even at trace level', async () => {
    const { app, logged } = tracedApp();
    const staff = await loginAs('admin', { app });

    const payload = accountPayload();
    await api(app).post(INSERT).set(staff.auth).send(payload).expect(200);
    await api(app).post(INSERT).set(staff.auth).send(payload).expect(409);
    await api(app)
      .post(INSERT)
      .set(staff.auth)
      .send({ ...payload, slotsCount: 0 })
      .expect(400);
    const mailbox = (await api(app).get(CREATE_MAILBOX).set(staff.auth).expect(200)).body;
    await api(app).get(LIST_MAILBOXES).query({ plaformId: 1 }).set(staff.auth).expect(200);

    expect(logged()).to.contain('/api/subscribe/insert'); // the access log did run
    expect(logged()).to.not.contain(payload.password);
    expect(logged()).to.not.contain(mailbox.password);
  });
});
