import { expect } from 'chai';
import { freePort, MAILBOX_LOCK_NAMESPACE } from '@subshare/core';
import { createUser, type TestUser } from '../support/agent.js';
import { exited, spawnCli } from '../support/cli.js';
import { startDovecot, type TestDovecot } from '../support/dovecot.js';
import { harness, testEnv } from '../support/harness.js';
import { mailboxAccount, netflixLink, netflixMail, subscribe } from '../support/mailboxes.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 16: one mailbox watcher per cluster. Two real `subshare serve` processes of the built CLI
 * on one database and one Dovecot mailbox: polls go through both, yet Dovecot sees the mailbox
 * logged into by one process only; a household link delivered to it is in the answers of both; and
 * when that process is killed with SIGKILL, the other takes the mailbox over and finds the next link.
 */
describe('mailbox reading shared by two serve processes', function () {
  this.timeout(120_000);
  let dovecot: TestDovecot;
  const children: Array<ReturnType<typeof spawnCli>> = [];

  type Shop = { child: ReturnType<typeof spawnCli>; url: string; name: string };

  before(async () => {
    dovecot = await startDovecot();
  });

  after(async () => {
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    running.forEach((child) => child.kill('SIGKILL'));
    await Promise.all(running.map((child) => exited(child)));
    await dovecot?.destroy();
  });

  async function serve(name: string, env: Record<string, string>): Promise<Shop> {
    const port = await freePort();
    const child = spawnCli(['serve'], { ...env, PORT: String(port), LOG_LEVEL: 'info' });
    children.push(child);
    await waitFor(() => child.output().includes('HTTP server listening'), { timeoutMs: 60_000, intervalMs: 100, what: `serve ${name}: ${child.output()}` });
    return { child, url: `http://127.0.0.1:${port}`, name };
  }

  const link = async (shop: Shop, buyer: TestUser, subscriptionId: number): Promise<string | null> => {
    const response = await fetch(`${shop.url}/api/email/getnvlink?subscriptionId=${subscriptionId}`, { headers: buyer.auth });
    const body = (await response.json()) as { link: string | null; code?: string };
    if (response.status !== 200) throw new Error(`${shop.name}: ${response.status} ${JSON.stringify(body)}`);
    return body.link;
  };
  /** The log lines of a process that say it took this mailbox. */
  const tookIt = (shop: Shop, mailboxId: number) =>
    shop.child
      .output()
      .split('\n')
      .filter((line) => line.includes('mailbox owned by this process') && line.includes(`"mailboxId":${mailboxId}`)).length;
  /** IMAP logins to this mailbox as Dovecot logged them (the test's own deliveries log in too). */
  const logins = (address: string) =>
    dovecot
      .log()
      .split('\n')
      .filter((line) => line.includes('imap-login:') && line.includes(`Login: user=<${address}>`)).length;

  it('one process reads the mailbox, both answer the link, and the other takes over after a SIGKILL', async () => {
    const account = await mailboxAccount(harness().container, dovecot, 0);
    const { rows } = await harness().knex.raw<{ rows: Array<{ id: number }> }>('select id from mailboxes where email = ?', [account.email]);
    const mailboxId = Number(rows[0].id);
    const user = await createUser();
    const subscriptionId = await subscribe(harness().container, user as TestUser, account.platform);

    // One configuration for both, as behind a load balancer; the harness's key reads the mailbox password.
    const env = testEnv(harness().db.url, { MAILBOX_IMAP_URL: dovecot.url, CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64') });
    const [a, b] = await Promise.all([serve('A', env), serve('B', env)]);
    const login = await fetch(`${a.url}/api/user/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(login.status).to.equal(200);
    const token = ((await login.json()) as { token: string }).token;
    const buyer = { ...user, token, auth: { Authorization: `Bearer ${token}` } } as TestUser;

    // Polls through both processes, several rounds.
    const loginsBefore = logins(account.email);
    for (let round = 0; round < 4; round += 1) {
      expect(await link(a, buyer, subscriptionId)).to.equal(null);
      expect(await link(b, buyer, subscriptionId)).to.equal(null);
    }
    // One process took the mailbox, and Dovecot saw one login for it: that process's watch.
    expect(tookIt(a, mailboxId) + tookIt(b, mailboxId)).to.equal(1);
    const [owner, survivor] = tookIt(a, mailboxId) === 1 ? [a, b] : [b, a];
    expect(logins(account.email) - loginsBefore).to.equal(1);
    const { rows: locks } = await harness().knex.raw<{ rows: Array<{ application_name: string }> }>(
      `select a.application_name from pg_locks l join pg_stat_activity a using (pid)
        where l.locktype = 'advisory' and l.classid = ? and l.objid = ? and l.objsubid = 2 and l.granted
          and l.database = (select oid from pg_database where datname = current_database())`,
      [MAILBOX_LOCK_NAMESPACE, mailboxId],
    );
    expect(locks.map((lock) => lock.application_name)).to.deep.equal(['subshare-events']);

    // A link delivered to the mailbox is in the answers of both processes.
    const first = netflixLink('travel');
    await dovecot.deliver(account.email, netflixMail(account.email, first));
    await waitFor(async () => (await link(survivor, buyer, subscriptionId)) === first, { what: `the link through ${survivor.name}`, intervalMs: 100 });
    expect(await link(owner, buyer, subscriptionId)).to.equal(first);
    // Heard by the owner's open watch: still no second login to the mailbox (besides the delivery).
    expect(logins(account.email) - loginsBefore).to.equal(2);

    // The owner dies without a word; the next poll through the other process takes the mailbox over.
    const gone = exited(owner.child);
    owner.child.kill('SIGKILL');
    await gone;
    const second = netflixLink('household');
    await dovecot.deliver(account.email, netflixMail(account.email, second, new Date(Date.now() + 1_000)));
    await waitFor(async () => (await link(survivor, buyer, subscriptionId)) === second, {
      what: `the new link through ${survivor.name} after the owner was killed`,
      intervalMs: 250,
      timeoutMs: 20_000,
    });
    expect(tookIt(survivor, mailboxId)).to.equal(1);
    for (const shop of [a, b]) expect(shop.child.output()).to.not.contain(first).and.not.contain(second).and.not.contain(account.mailboxPassword);
  });
});
