/**
 * The API as a client sees it: supertest around the app, plus factories that make users of
 * each role with unique e-mails and log them in through the real `authenticate` call.
 */
import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { hashPassword, ROLES, type RoleName } from '@subshare/core';
import { harness } from './harness.js';

let ipCounter = 0;

/** A documentation-range address (RFC 5737) per client, so rate limits of one test never hit another. */
export function uniqueIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

/** A client with its own IP (sent as X-Forwarded-For, which the test app trusts from loopback). */
export const api = (app: Express = harness().app, ip = uniqueIp()) => request.agent(app).set('X-Forwarded-For', ip);

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.test`;
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
  token: string;
  auth: { Authorization: string };
}

let cachedHash: { password: string; hash: Promise<string> } | undefined;

/** Creates a user straight in the database (argon2 is slow; one hash serves every factory user). */
export async function createUser(options: { role?: RoleName; verified?: boolean; email?: string; languageId?: 1 | 2 } = {}) {
  cachedHash ??= { password: 'factory-pass-1', hash: hashPassword('factory-pass-1') };
  const email = options.email ?? uniqueEmail(options.role ?? 'user');
  const [row] = await harness()
    .knex('users')
    .insert({
      email,
      password_hash: await cachedHash.hash,
      role: ROLES[options.role ?? 'user'],
      is_email_verified: options.verified ?? true,
      language_id: options.languageId ?? 1,
      name: 'Test User',
    })
    .returning('id');
  return { id: row.id as number, email, password: cachedHash.password };
}

/** A user of the given role, logged in through POST /api/user/authenticate. */
export async function loginAs(role: RoleName = 'user', options: { verified?: boolean; app?: Express } = {}): Promise<TestUser> {
  return logIn(await createUser({ role, verified: options.verified }), options.app);
}

/** Logs a user in with their password through POST /api/user/authenticate (again, after time moved past a token's life). */
export async function logIn(user: { id: number; email: string; password: string }, app?: Express): Promise<TestUser> {
  const res = await api(app).post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(200);
  return { ...user, token: res.body.token, auth: { Authorization: `Bearer ${res.body.token}` } };
}
