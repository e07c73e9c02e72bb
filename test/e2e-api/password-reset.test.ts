import { expect } from 'chai';
import { api, loginAs } from '../support/agent.js';
import { harness } from '../support/harness.js';

describe('changepassword attempt limit', () => {
  it('answers 429 after 10 wrong current passwords, refuses even the right one then, and frees it after 15 minutes', async () => {
    const user = await loginAs('user');
    const change = (currentPassword: string) =>
      api().post('/api/user/changepassword').set(user.auth).send({ currentPassword, newPassword: 'brand-new-pass-1' });
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 40; attempt++) statuses.push((await change(`wrong-pass-${attempt}`)).status);
    expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(401));
    expect(statuses.slice(10)).to.deep.equal(Array(30).fill(429));

    const blocked = await change(user.password).expect(429);
    expect(blocked.body.code).to.equal('too_many_requests');
    expect(Number(blocked.headers['retry-after'])).to.be.within(1, 15 * 60);

    harness().clock.advance(15 * 60_000 + 1_000);
    const changed = await change(user.password).expect(200);
    expect(changed.body.token).to.be.a('string');
  });

  it('cannot be raced: a parallel burst checks no more than the limit', async () => {
    const user = await loginAs('user');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        api()
          .post('/api/user/changepassword')
          .set(user.auth)
          .send({ currentPassword: `burst-wrong-${i}`, newPassword: 'brand-new-pass-1' }),
      ),
    );
    const counts = answers.reduce<Record<number, number>>((acc, res) => ({ ...acc, [res.status]: (acc[res.status] ?? 0) + 1 }), {});
    expect(counts).to.deep.equal({ 401: 10, 429: 15 });
  });
});
