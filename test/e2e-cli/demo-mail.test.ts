import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONSOLE_MAIL_BEGIN, CONSOLE_MAIL_END, freePort } from '@subshare/core';
import { exited, spawnCli } from '../support/cli.js';
import { harness, testEnv } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * A newcomer runs `npm start` without SMTP and signs up: the verification code is printed on the
 * shop's console (and only there: staff read it masked). Production mode never prints a body.
 */
describe('e-mails on the console in demo mode without SMTP', function () {
  this.timeout(120_000);

  type Shop = { child: ReturnType<typeof spawnCli>; url: string };

  async function run(command: 'start' | 'serve', env: Record<string, string>, ready: string): Promise<Shop> {
    const port = await freePort();
    // debug: the JSON logs say all they ever say, and must still hold no code.
    const child = spawnCli([command], { ...env, PORT: String(port), LOG_LEVEL: 'debug' });
    await waitFor(() => child.output().includes(ready), { timeoutMs: 60_000, intervalMs: 100, what: `${command} to be ready` });
    return { child, url: `http://127.0.0.1:${port}` };
  }

  async function stop(shop: Shop) {
    shop.child.kill('SIGTERM');
    expect(await exited(shop.child)).to.equal(0);
  }

  async function call(shop: Shop, method: string, route: string, body?: unknown, token?: string) {
    const response = await fetch(`${shop.url}${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  /** The printed e-mails to `to` (each block from its first line to its last). */
  function printedTo(output: string, to: string): string[] {
    const blocks = output.split(CONSOLE_MAIL_BEGIN).slice(1);
    return blocks.map((block) => block.slice(0, block.indexOf(CONSOLE_MAIL_END))).filter((block) => block.includes(`│ To:      ${to}\n`));
  }

  /** JSON log lines: where a code must never be. */
  const logLines = (output: string) => output.split('\n').filter((line) => line.startsWith('{'));

  it('`subshare start` prints the sign-up code, which verifies the new buyer and logs them in; staff read it masked', async () => {
    const shop = await run('start', { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'subshare-demo-mail-')) }, 'subshare is running at');
    try {
      const admin = /log in at \/login as (\S+) with password (\S+)/.exec(shop.child.output());
      expect(admin, 'the demo admin in the start banner').to.not.equal(null);
      const email = `newcomer-${Date.now()}@example.test`;
      const registered = await call(shop, 'POST', '/api/user/register', { email, password: 'good-pass-1', languageId: 1 });
      expect(registered.status).to.equal(200);
      expect(registered.body.isEmailVerified).to.equal(false);
      expect((await call(shop, 'POST', '/api/user/sendverificationcode', { email }, registered.body.token)).status).to.equal(200);

      const mail = await waitFor(() => printedTo(shop.child.output(), email).find((block) => /verification code/i.test(block)), {
        what: 'the verification e-mail on the console',
      });
      expect(mail).to.match(/│ Subject: Your .* verification code/);
      const code = /(?<!\d)(\d{6})(?!\d)/.exec(mail)?.[1];
      expect(code, 'a 6-digit code in the printed e-mail').to.be.a('string');

      const verified = await call(shop, 'POST', '/api/user/sendverificationcodecallback', { email, code });
      expect(verified.status).to.equal(200);
      expect(verified.body.isEmailVerified).to.equal(true);
      expect((await call(shop, 'GET', `/api/user/getuserpanel?id=${registered.body.id}&languageId=1`, undefined, verified.body.token)).status).to.equal(200);
      // Every e-mail is printed, not only codes: the welcome e-mail follows the verification.
      await waitFor(() => printedTo(shop.child.output(), email).length >= 2, { what: 'the welcome e-mail on the console' });

      // Staff see the e-mail kept in the outbox, with the code masked.
      const staff = await call(shop, 'POST', '/api/user/authenticate', { email: admin![1], password: admin![2] });
      expect(staff.status).to.equal(200);
      const outbox = await call(shop, 'GET', `/api/email/outbox?userId=${registered.body.id}`, undefined, staff.body.token);
      expect(outbox.status).to.equal(200);
      const codeEmail = outbox.body.items.find((item: { kindName: string }) => item.kindName === 'verificationCode');
      expect(codeEmail.status).to.equal('kept');
      const read = await call(shop, 'GET', `/api/email/outbox/${codeEmail.id}`, undefined, staff.body.token);
      expect(read.body.text).to.contain('••••••');
      expect(JSON.stringify(outbox.body) + JSON.stringify(read.body)).to.not.contain(code);
      expect(logLines(shop.child.output()).join('\n'), 'the JSON logs').to.not.contain(code);
    } finally {
      await stop(shop);
    }
  });

  it('production mode without SMTP prints no e-mail body', async () => {
    const shop = await run('serve', testEnv(harness().db.url), 'HTTP server listening');
    try {
      const email = `prod-${Date.now()}@example.test`;
      const registered = await call(shop, 'POST', '/api/user/register', { email, password: 'good-pass-1', languageId: 1 });
      expect(registered.status).to.equal(200);
      expect((await call(shop, 'POST', '/api/user/sendverificationcode', { email }, registered.body.token)).status).to.equal(200);
      // The e-mail exists (kept, without its code): it was written, and not printed.
      const row = await waitFor(() => harness().knex('email_outbox').where({ to_address: email, kind: 5 }).first());
      expect(row.status).to.equal('kept');
      expect(row.code).to.equal(null);
      const output = shop.child.output();
      expect(output).to.not.contain(CONSOLE_MAIL_BEGIN);
      expect(output).to.not.contain(email);
      expect(output).to.not.match(/verification code/i);
    } finally {
      await stop(shop);
    }
  });
});
