import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { harness, testEnv } from '../support/harness.js';
import { waitFor } from '../support/wait.js';
import { api, createUser } from '../support/agent.js';
import { exited, runCli, SUBSHARE_BIN } from '../support/cli.js';

describe('subshare CLI', function () {
  // Each command is a new Node process: seconds each on a busy 2-core machine.
  this.timeout(90_000);

  it('--help lists every command with one line each', async () => {
    const result = await runCli(['--help']);
    expect(result.code).to.equal(0);
    for (const command of ['start', 'serve', 'worker', 'migrate', 'seed', 'create-admin', 'set-role']) {
      expect(result.stdout).to.match(new RegExp(`\\n\\s+${command}\\b`));
    }
  });

  it('create-admin makes an admin who can be found in the database, with an argon2id hash', async () => {
    const email = `ops-${randomUUID().slice(0, 8)}@example.test`;
    const result = await runCli(['create-admin', '--email', email, '--password-stdin'], testEnv(harness().db.url), 'correct-horse1\n');
    expect(result.stderr).to.equal('');
    expect(result.stdout.trim()).to.equal(`Created admin ${email}.`);
    const user = await harness().knex('users').where({ email }).first();
    expect(user.role).to.equal(2);
    expect(user.is_email_verified).to.equal(true);
    expect(user.password_hash).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user.password_hash).to.not.contain('correct-horse1');

    // set-role is the staff page's setrole: it never demotes the last admin.
    await harness().knex('users').where({ role: 2 }).whereNot({ email }).update({ role: 1 });
    const refused = await runCli(['set-role', '--email', email, '--role', 'moderator'], testEnv(harness().db.url));
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain(`${email} is the last admin: make someone else admin first.`);
    await createUser({ role: 'admin' });
    const demoted = await runCli(['set-role', '--email', email, '--role', 'moderator'], testEnv(harness().db.url));
    expect(demoted.code).to.equal(0);
    expect(demoted.stdout.trim()).to.equal(`${email} is now moderator.`);
    expect((await harness().knex('users').where({ email }).first()).role).to.equal(1);
    const [audited] = await harness().knex('audit_log').where({ action: 'user.role', target_type: 'user' }).orderBy('id', 'desc').limit(1);
    expect(audited).to.deep.include({ actor_label: 'cli', actor_user_id: null, details: { email, before: 2, after: 1 } });
  });

  it('create-admin refuses a too-short password with a clear message', async () => {
    const result = await runCli(['create-admin', '--email', 'x@example.test'], { ...testEnv(harness().db.url), SUBSHARE_PASSWORD: 'short' });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain('password must be at least 8 characters');
  });

  it('create-admin takes the password from SUBSHARE_PASSWORD, and never from the command line', async () => {
    const email = `env-${randomUUID().slice(0, 8)}@example.test`;
    const onArgv = await runCli(['create-admin', '--email', email, '--password', 'correct-horse1'], testEnv(harness().db.url));
    expect(onArgv.code).to.equal(1);
    expect(onArgv.stderr).to.contain('--password is not accepted: a secret on the command line is visible to every user in `ps`');
    expect(await harness().knex('users').where({ email })).to.have.length(0);

    const result = await runCli(['create-admin', '--email', email], { ...testEnv(harness().db.url), SUBSHARE_PASSWORD: 'from-the-env-1' });
    expect(result.stderr).to.equal('');
    expect(result.stdout.trim()).to.equal(`Created admin ${email}.`);
    const login = await api().post('/api/user/authenticate').send({ email, password: 'from-the-env-1' });
    expect(login.status).to.equal(200);
    expect(login.body.role).to.equal(2);
  });

  it('create-admin asks for the password on a terminal, twice and without echo', async () => {
    /** The command on a pseudo-terminal (util-linux `script`), answering each prompt as it appears. */
    async function onTerminal(email: string, answers: string[]) {
      const command = `'${process.execPath}' '${SUBSHARE_BIN}' create-admin --email ${email}`;
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...testEnv(harness().db.url) },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      for (const [index, answer] of answers.entries()) {
        await waitFor(() => output.split('(8 to 18 characters)').length > index + 1 && output.trimEnd().endsWith(':'), {
          what: `prompt ${index + 1}`,
          timeoutMs: 60_000,
        });
        child.stdin.write(`${answer}\r`);
      }
      const code = await exited(child);
      child.stdin.end();
      return { code, output };
    }
    const email = `tty-${randomUUID().slice(0, 8)}@example.test`;
    const differ = await onTerminal(email, ['typed-once-1', 'typed-twice-2']);
    expect(differ.code).to.equal(1);
    expect(differ.output).to.contain('The two passwords differ; nothing was changed.');
    expect(await harness().knex('users').where({ email })).to.have.length(0);

    const result = await onTerminal(email, ['on-the-tty-1', 'on-the-tty-1']);
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.contain(`Created admin ${email}.`);
    expect(result.output, 'nothing typed is echoed').to.not.contain('on-the-tty-1');
    expect((await api().post('/api/user/authenticate').send({ email, password: 'on-the-tty-1' })).status).to.equal(200);
  });

  it('--version and -V print the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version).to.match(/^\d+\.\d+\.\d+/);
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag]);
      expect(result.code).to.equal(0);
      expect(result.stdout).to.equal(`${version}\n`);
    }
  });

  it('stops at start-up with one line naming a malformed variable', async () => {
    const result = await runCli(['migrate'], { PORT: 'not-a-port' });
    expect(result.code).to.equal(78);
    expect(result.stderr.trim()).to.equal('Invalid configuration: PORT must be a port number from 1 to 65535 (got "not-a-port")');
  });

  it('reports every configuration problem at once, one line each', async () => {
    const result = await runCli(['migrate'], { PORT: 'not-a-port', SMTP_URL: 'http://mail.example', NAVER_CLIENT_ID: 'id' });
    expect(result.code).to.equal(78);
    expect(result.stderr.trim().split('\n')).to.have.members([
      'Invalid configuration: PORT must be a port number from 1 to 65535 (got "not-a-port")',
      'Invalid configuration: SMTP_URL must start with smtp: or smtps:',
      'Invalid configuration: NAVER_CLIENT_SECRET must be set together with NAVER_CLIENT_ID',
    ]);
  });
});
