/**
 * The long-running parts a command can start: the HTTP server, the worker, and the first
 * admin that a fresh installation needs.
 */
import { randomBytes } from 'node:crypto';
import { pendingMigrations, REMINDERS_UNDELIVERED_WARNING, IdentityService, RenewalViewsFlow, type Runtime } from '@subshare/core';
import { createServerHandler, listen } from '@subshare/http';
import { startWorker } from '@subshare/worker';
import { recordShopUrl } from './shop-url.js';

export async function startHttp(runtime: Runtime): Promise<{ url: string; close(): Promise<void> }> {
  const pending = await pendingMigrations(runtime.knex);
  if (pending.length) {
    throw new Error(`The database has ${pending.length} pending migration(s): run \`subshare migrate\` first.`);
  }
  const { app, handle } = createServerHandler(runtime.container);
  const server = await listen(app, runtime.config.port, runtime.config.host, handle);
  runtime.logger.info({ url: server.url }, 'HTTP server listening');
  try {
    recordShopUrl(runtime.config);
  } catch (error) {
    runtime.logger.warn({ err: error }, 'could not record the public URL in DATA_DIR; other commands link e-mails to their own PUBLIC_URL');
  }
  return server;
}

export async function startWorkerProcess(runtime: Runtime) {
  // The worker runs the renewal pass: say at its start when that pass can never charge (issue 34).
  if (runtime.container.get(RenewalViewsFlow).remindersUndelivered) runtime.logger.warn(REMINDERS_UNDELIVERED_WARNING);
  return startWorker(runtime.boss, runtime.container);
}

/**
 * A fresh installation needs one admin. ADMIN_EMAIL/ADMIN_PASSWORD name it; in demo mode one is
 * generated and its password printed this once (it is stored only as an argon2id hash).
 */
export async function ensureFirstAdmin(runtime: Runtime): Promise<string[]> {
  const identity = runtime.container.get(IdentityService);
  if (await identity.hasAdmin()) {
    return ['Log in at /login with your admin account (a new password: `npx subshare create-admin --email <email>`, which asks for it).'];
  }
  const { admin, mode } = runtime.config;
  if (admin.email && admin.password) {
    await identity.createAdmin({ email: admin.email, password: admin.password });
    return [`Admin created: log in at /login as ${admin.email} with ADMIN_PASSWORD.`];
  }
  if (mode === 'demo') {
    const email = 'admin@subshare.localhost';
    const password = randomBytes(12).toString('base64url').slice(0, 16);
    await identity.createAdmin({ email, password });
    return [
      `Demo admin created: log in at /login as ${email} with password ${password}`,
      `(shown only this once; change it with \`npx subshare create-admin --email ${email}\`)`,
    ];
  }
  runtime.logger.warn('no admin exists: set ADMIN_EMAIL and ADMIN_PASSWORD or run `subshare create-admin`');
  return ['No admin exists yet: run `subshare create-admin --email <email>` (it asks for the password, or reads SUBSHARE_PASSWORD or --password-stdin).'];
}
