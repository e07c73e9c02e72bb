import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@subshare/core';
import { exited, runCli, spawnCli } from '../support/cli.js';
import { waitFor } from '../support/wait.js';

/** What a shop owner does first: start, look, stop, start again. */
describe('subshare start (embedded PostgreSQL, one process)', function () {
  this.timeout(90_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'subshare-start-'));

  const postgresRunning = () => {
    const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    return ps.split('\n').some((line) => line.includes('postgres') && line.includes(dataDir));
  };

  async function startShop() {
    const port = await freePort();
    const child = spawnCli(['start'], { DATA_DIR: dataDir, PORT: String(port) });
    await waitFor(() => child.output().includes('subshare is running at'), { timeoutMs: 60_000, intervalMs: 100, what: 'the start banner' });
    return { child, url: `http://127.0.0.1:${port}` };
  }

  async function stopShop(child: ReturnType<typeof spawnCli>) {
    const started = Date.now();
    child.kill('SIGTERM');
    const code = await exited(child);
    expect(code).to.equal(0);
    expect(Date.now() - started).to.be.below(10_000);
    await waitFor(() => !postgresRunning(), { timeoutMs: 5_000, what: 'postgres to be gone' });
  }

  it('serves the catalog, stops cleanly on SIGTERM, and keeps its data across restarts without seeding twice', async () => {
    const first = await startShop();
    expect(first.child.output()).to.contain(`subshare is running at ${first.url}`);
    expect(first.child.output()).to.match(/Demo admin created: log in at \/login as admin@subshare\.localhost with password \S{16}/);
    const home = await (await fetch(`${first.url}/api/main/home`)).json();
    expect(home.platforms).to.have.length.of.at.least(6);
    expect(postgresRunning()).to.equal(true);
    await stopShop(first.child);

    const second = await startShop();
    expect(second.child.output()).to.not.contain('Demo admin created');
    expect(second.child.output()).to.contain('Log in at /login with your admin account');
    const again = await (await fetch(`${second.url}/api/main/home`)).json();
    expect(again.platforms.map((p: { id: number }) => p.id)).to.deep.equal(home.platforms.map((p: { id: number }) => p.id));
    await stopShop(second.child);
  });

  it('a CLI command beside the running shop uses its database and leaves it running', async () => {
    const shop = await startShop();
    const mailbox = await runCli(['create-mailbox'], { DATA_DIR: dataDir });
    expect(mailbox.code, mailbox.stderr).to.equal(0);
    expect(mailbox.stdout).to.match(/Created mailbox \d+/);
    // The shop still answers from the same database, and its server was not stopped.
    expect(postgresRunning()).to.equal(true);
    const health = await fetch(`${shop.url}/api/health`);
    expect(health.status).to.equal(200);
    await stopShop(shop.child);
  });

  it('a server left behind by a killed run is stopped, not borrowed', async () => {
    const shop = await startShop();
    shop.child.kill('SIGKILL');
    await exited(shop.child);
    expect(postgresRunning()).to.equal(true); // the orphan
    const again = await startShop();
    const health = await fetch(`${again.url}/api/health`);
    expect(health.status).to.equal(200);
    await stopShop(again.child);
  });
});
