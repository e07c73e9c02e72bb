import { expect } from 'chai';
import { api, createUser, loginAs, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';

const LIST = '/api/staff/list';
const SET_ROLE = '/api/staff/setrole';

/**
 * The staff page's calls (issue 15): admins list moderators and admins and give roles by e-mail;
 * the change holds from the user's next request, is audited with the role before and after, and
 * never leaves the shop without an admin, even when two admins demote each other at once.
 */
describe('staff roles (GET /api/staff/list, POST /api/staff/setrole)', function () {
  this.timeout(60_000);
  const knex = () => harness().knex;
  let admin: TestUser;

  before(async () => {
    admin = await loginAs('admin');
  });

  const setRole = (who: TestUser, body: Record<string, unknown>) => api().post(SET_ROLE).set(who.auth).send(body);

  it('answers 401 without a token and 403 to a buyer or a moderator, for both calls', async () => {
    const [buyer, moderator] = await Promise.all([loginAs('user'), loginAs('moderator')]);
    const target = await createUser();
    await api().get(LIST).expect(401);
    await api().post(SET_ROLE).send({ email: target.email, role: 1 }).expect(401);
    for (const who of [buyer, moderator]) {
      const list = await api().get(LIST).set(who.auth).expect(403);
      expect(list.body.code).to.equal('forbidden');
      await setRole(who, { email: target.email, role: 2 }).expect(403);
    }
    // A moderator cannot make themselves admin either.
    await setRole(moderator, { email: moderator.email, role: 2 }).expect(403);
    expect((await knex()('users').where({ id: target.id }).first()).role).to.equal(0);
    expect((await knex()('users').where({ id: moderator.id }).first()).role).to.equal(1);
  });

  it('refuses wrong input with 400 and a message per field', async () => {
    const target = await createUser();
    const cases: Array<[Record<string, unknown> | string, string]> = [
      [{ email: target.email }, 'role'],
      [{ email: target.email, role: 3 }, 'role'],
      [{ email: target.email, role: 'admin' }, 'role'],
      [{ email: target.email, role: [2] }, 'role'],
      [{ email: target.email, role: 1.5 }, 'role'],
      [{ role: 1 }, 'email'],
      [{ email: 'not-an-address', role: 1 }, 'email'],
      [{ email: { $ne: null }, role: 1 }, 'email'],
    ];
    for (const [body, field] of cases) {
      const res = await setRole(admin, body as Record<string, unknown>).expect(400);
      expect(res.body.errors, JSON.stringify(body)).to.have.property(field);
    }
    const proto = await api()
      .post(SET_ROLE)
      .set(admin.auth)
      .set('Content-Type', 'application/json')
      .send(`{"email":"${target.email}","role":0,"__proto__":{"role":2}}`)
      .expect(400);
    expect(proto.body.code).to.equal('forbidden_key');
    const unknown = await setRole(admin, { email: `nobody-${target.id}@example.test`, role: 1 }).expect(404);
    expect(unknown.body.code).to.equal('user_not_found');
    expect((await knex()('users').where({ id: target.id }).first()).role).to.equal(0);
  });

  it('promotes a buyer to moderator, effective on their next request with the same token, then demotes them; both audited', async () => {
    const user = await loginAs('user');
    await api().get('/api/order/getorders').set(user.auth).expect(403);

    const promoted = await setRole(admin, { email: user.email.toUpperCase(), role: 1 }).expect(200);
    expect(promoted.body).to.deep.equal({ id: user.id, email: user.email, before: 0, role: 1, changed: true });
    await api().get('/api/order/getorders').set(user.auth).expect(200);
    // Staff, but not an admin.
    await api().get(LIST).set(user.auth).expect(403);

    const list = await api().get(LIST).set(admin.auth).expect(200);
    const listed = (list.body as Array<{ id: number; role: number; since: string; email: string }>).find((member) => member.id === user.id);
    expect(listed).to.include({ email: user.email, role: 1 });
    expect(Date.now() - Date.parse(listed!.since)).to.be.within(0, 60_000);
    // Admins first.
    const roles = (list.body as Array<{ role: number }>).map((member) => member.role);
    expect(roles).to.deep.equal([...roles].sort((a, b) => b - a));
    expect(roles).to.not.include(0);

    // The same role again changes and records nothing.
    expect((await setRole(admin, { email: user.email, role: 1 }).expect(200)).body).to.include({ before: 1, role: 1, changed: false });

    expect((await setRole(admin, { email: user.email, role: 0 }).expect(200)).body).to.include({ before: 1, role: 0, changed: true });
    await api().get('/api/order/getorders').set(user.auth).expect(403);
    expect((await api().get(LIST).set(admin.auth).expect(200)).body.map((member: { id: number }) => member.id)).to.not.include(user.id);

    const log = await api()
      .get('/api/audit/log')
      .set(admin.auth)
      .query({ targetType: 'user', targetId: String(user.id) })
      .expect(200);
    expect(log.body.map((entry: { action: string; details: unknown; actor: unknown }) => [entry.action, entry.details, entry.actor])).to.deep.equal([
      ['user.role', { email: user.email, before: 1, after: 0 }, { userId: admin.id, label: admin.email }],
      ['user.role', { email: user.email, before: 0, after: 1 }, { userId: admin.id, label: admin.email }],
    ]);
    // The filters of the audit log: by action, by the actor's e-mail (any case) or id.
    const byActor = await api().get('/api/audit/log').set(admin.auth).query({ actorEmail: admin.email.toUpperCase(), action: 'user.role' }).expect(200);
    expect(byActor.body).to.have.length(2);
    const byId = await api().get('/api/audit/logpages').set(admin.auth).query({ actorUserId: admin.id, action: 'user.role' }).expect(200);
    expect(byId.body).to.deep.equal({ pages: 1, count: 2 });
  });

  /** Leaves exactly these users as admins: every other admin of this file's database becomes a moderator. */
  async function onlyAdmins(...admins: TestUser[]): Promise<void> {
    await knex()('users')
      .where({ role: 2 })
      .whereNotIn(
        'id',
        admins.map((user) => user.id),
      )
      .update({ role: 1 });
  }

  it('refuses to demote the last admin (409 last_admin), also an admin demoting themselves', async () => {
    const last = await loginAs('admin');
    await onlyAdmins(last);
    for (const role of [0, 1]) {
      const res = await setRole(last, { email: last.email, role }).expect(409);
      expect(res.body).to.deep.equal({ code: 'last_admin', message: `${last.email} is the last admin: make someone else admin first.` });
    }
    expect((await knex()('users').where({ role: 2 })).map((user) => user.id)).to.deep.equal([last.id]);
    // With a second admin, the first may step down.
    const second = await createUser();
    await setRole(last, { email: second.email, role: 2 }).expect(200);
    await setRole(last, { email: last.email, role: 1 }).expect(200);
    expect((await knex()('users').where({ role: 2 })).map((user) => user.id)).to.deep.equal([second.id]);
    await api().get(LIST).set(last.auth).expect(403);
  });

  it('two admins demoting each other at once leave one admin, never none', async () => {
    for (let round = 0; round < 5; round += 1) {
      const [first, second] = await Promise.all([loginAs('admin'), loginAs('admin')]);
      await onlyAdmins(first, second);
      const answers = await Promise.all([setRole(first, { email: second.email, role: 1 }), setRole(second, { email: first.email, role: 0 })]);
      const statuses = answers.map((res) => res.status).sort();
      // Both may be refused: the one that lost the lock finds itself demoted (403) or the other the last admin (409).
      expect(statuses[0], `round ${round}: ${JSON.stringify(answers.map((res) => res.body))}`).to.equal(200);
      expect([403, 409]).to.include(statuses[1]);
      const admins = await knex()('users').where({ role: 2 });
      expect(admins, `round ${round}`).to.have.length(1);
      expect([first.id, second.id]).to.include(admins[0].id);
    }
  });
});
