/**
 * The prune job's work (flows/prune.flow.ts): sessions and one-time codes a week past their
 * expiry and ended rate-limit windows go, each deleted by the part of the shop that owns them
 * (identity, the rate limiter); what can still matter stays.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { PruneFlow } from '@subshare/core';
import { harness } from '../support/harness.js';
import { buyer } from '../support/shop.js';

describe('pruning expired rows (the prune job)', () => {
  it('deletes sessions and codes a week past expiry and ended rate-limit windows, and keeps the rest', async () => {
    const { knex, clock, container } = harness();
    const now = clock.now().getTime();
    const day = 24 * 3600_000;
    const user = await buyer();
    const [oldSession, recentSession] = [randomUUID(), randomUUID()];
    await knex('auth_sessions').insert([
      { id: oldSession, user_id: user.id, created_at: new Date(now - 40 * day), expires_at: new Date(now - 8 * day) },
      { id: recentSession, user_id: user.id, created_at: new Date(now - 10 * day), expires_at: new Date(now - 2 * day) },
    ]);
    const code = (expiresAgo: number) => ({ user_id: user.id, email: user.email, code_hash: randomUUID(), expires_at: new Date(now - expiresAgo) });
    const [oldCode, recentCode] = await knex('verification_codes')
      .insert([code(8 * day), code(day)])
      .returning('id');
    const [ended, running] = [`prune-test:${randomUUID()}`, `prune-test:${randomUUID()}`];
    await knex('rate_limits').insert([
      { key: ended, hits: 3, window_ends_at: new Date(now - 1000) },
      { key: running, hits: 1, window_ends_at: new Date(now + 60_000) },
    ]);

    const deleted = await container.get(PruneFlow).prune();
    expect(deleted.authSessions).to.be.at.least(1);
    expect(deleted.verificationCodes).to.be.at.least(1);
    expect(deleted.rateLimits).to.be.at.least(1);

    const sessions = (await knex('auth_sessions').whereIn('id', [oldSession, recentSession]).pluck('id')) as string[];
    expect(sessions).to.deep.equal([recentSession]);
    const codes = (await knex('verification_codes').whereIn('id', [oldCode.id, recentCode.id]).pluck('id')) as number[];
    expect(codes).to.deep.equal([recentCode.id]);
    const limits = (await knex('rate_limits').whereIn('key', [ended, running]).pluck('key')) as string[];
    expect(limits).to.deep.equal([running]);
  });
});
