import { expect } from 'chai';
import type { UnavailableError } from '@subshare/core';
import { harness } from '../support/harness.js';
import { useMailboxNodes } from '../support/mailbox-nodes.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

/**
 * A process that has lost its database events connection answers a mailbox poll with 503 at once,
 * not after the 5-s read budget a wait for the owner would take: a time limit, so in the serial
 * lane (.mocharc.serial.cjs). The rest of mailbox ownership: test/integration/mailbox-ownership.test.ts.
 */
describe('mailbox ownership: a process without its events connection', function () {
  this.timeout(60_000);
  const { node, mailbox, reads, recently } = useMailboxNodes();

  it('without its events connection a process answers 503 at once (not after the read budget), and reads again once it is back', async () => {
    const url = new URL(harness().db.url);
    const proxy = await startTcpProxy(url.hostname, Number(url.port));
    try {
      const cut = node(proxy.urlFor(harness().db.url));
      const { target } = await mailbox();
      await proxy.refuse();
      const started = Date.now();
      const failure = await cut.reader.latest(target, 'householdLink', recently()).catch((error: unknown) => error);
      // The requirement: a fast 503, well inside the 5-s read budget a wait for an owner would take.
      expect(Date.now() - started).to.be.below(3_000);
      expect((failure as UnavailableError).code).to.equal('mailbox_unavailable');
      expect(reads(cut, target.mailboxId)).to.equal(0);

      await proxy.resume();
      expect(await cut.reader.latest(target, 'householdLink', recently())).to.equal(null);
      expect(reads(cut, target.mailboxId)).to.equal(1);
    } finally {
      await proxy.close();
    }
  });
});
