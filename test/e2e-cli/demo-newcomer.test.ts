import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONSOLE_MAIL_BEGIN, CONSOLE_MAIL_END, freePort } from '@subshare/core';
import { exited, spawnCli } from '../support/cli.js';
import { harness } from '../support/harness.js';
import { accountsService } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 24: a newcomer's purchase activates. `npm start` on a fresh data directory (demo mode)
 * gives every platform a demo account, so a newcomer who signs up with the code printed on the
 * console and pays with the demo provider sees an active slot in the panel at once. Before, the
 * demo catalog had no account behind any platform and the order waited "within 24 hours" forever.
 */
describe('a newcomer on `npm start` buys and gets an active slot', function () {
  this.timeout(180_000);

  type Shop = { child: ReturnType<typeof spawnCli>; url: string };

  async function start(dataDir: string): Promise<Shop> {
    const port = await freePort();
    const child = spawnCli(['start'], { DATA_DIR: dataDir, PORT: String(port) });
    await waitFor(() => child.output().includes('Stop with Ctrl+C'), { timeoutMs: 90_000, intervalMs: 100, what: 'start to print its banner' });
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
      redirect: 'manual',
    });
    const text = await response.text();
    return { status: response.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
  }

  function printedCode(output: string, to: string): string | undefined {
    const blocks = output.split(CONSOLE_MAIL_BEGIN).slice(1);
    const mail = blocks
      .map((block) => block.slice(0, block.indexOf(CONSOLE_MAIL_END)))
      .find((block) => block.includes(`│ To:      ${to}\n`) && /verification code/i.test(block));
    return mail && /(?<!\d)(\d{6})(?!\d)/.exec(mail)?.[1];
  }

  it('signs up with the console code, pays with the demo provider, and sees the active slot in the panel', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'subshare-newcomer-'));
    const shop = await start(dataDir);
    try {
      // The banner says where staff add real accounts.
      expect(shop.child.output()).to.contain('/jve/createsubscriber');
      expect(shop.child.output()).to.contain('subshare create-account');

      const email = `newcomer-${Date.now()}@example.test`;
      const registered = await call(shop, 'POST', '/api/user/register', { email, password: 'good-pass-1', languageId: 1 });
      expect(registered.status).to.equal(200);
      expect((await call(shop, 'POST', '/api/user/sendverificationcode', { email }, registered.body.token)).status).to.equal(200);
      const code = await waitFor(() => printedCode(shop.child.output(), email), { what: 'the verification code on the console' });
      const verified = await call(shop, 'POST', '/api/user/sendverificationcodecallback', { email, code });
      expect(verified.status).to.equal(200);
      const token: string = verified.body.token;

      // Platform 1 of the demo catalog, its first plan, by card: served by the demo provider.
      const order = await call(
        shop,
        'POST',
        '/api/order/insert',
        { platformId: 1, typeId: 1, durationId: 1, quantity: 1, languageId: 1, currency: 'EUR' },
        token,
      );
      expect(order.status).to.equal(200);
      const session = await call(shop, 'POST', '/api/payment/createcheckoutsession', { orderId: order.body.id }, token);
      expect(session.status).to.equal(200);
      const checkoutPath = new URL(session.body.url).pathname;
      expect((await call(shop, 'GET', checkoutPath)).status).to.equal(200);
      const paid = await fetch(`${shop.url}/api/webhook/demo`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: decodeURIComponent(checkoutPath.split('/').pop()!), outcome: 'paid' }),
        redirect: 'manual',
      });
      expect(paid.status).to.equal(303);

      const panel = await waitFor(
        async () => {
          const answer = await call(shop, 'GET', `/api/user/getuserpanel?id=${registered.body.id}&languageId=1`, undefined, token);
          return answer.body.subscribers?.length > 0 ? answer.body : undefined;
        },
        { timeoutMs: 30_000, what: 'an active subscription in the panel' },
      );
      expect(panel.subscribersNotCompleted).to.have.length(0);
      const [slot] = panel.subscribers;
      expect(slot.orderId).to.equal(order.body.id);
      expect(slot.email, 'the demo account logs in with a demo mailbox').to.match(/^demo-[a-z]+-[a-z]+-\d{4}@mail\.localhost$/);
      expect(slot.password).to.match(/^[A-Za-z0-9]{18}$/);
      expect(slot.slotId).to.be.a('number');
    } finally {
      await stop(shop);
    }

    // A second start on the same data seeds no more demo accounts and still says where real ones go.
    const again = await start(dataDir);
    try {
      expect(again.child.output()).to.contain('/jve/createsubscriber');
    } finally {
      await stop(again);
    }
  });

  it('production mode (DATABASE_URL set) never seeds demo accounts', async () => {
    const before = await harness().knex('platform_accounts').count<{ count: string }[]>('id as count');
    let refused: Error | undefined;
    await accountsService()
      .seedDemoAccounts({ label: 'demo' })
      .catch((error: Error) => (refused = error));
    expect(refused?.message).to.match(/demo mode only/);
    expect(await harness().knex('platform_accounts').count<{ count: string }[]>('id as count')).to.deep.equal(before);
    expect(await harness().knex('platform_accounts').where({ is_demo: true })).to.have.length(0);
  });
});
