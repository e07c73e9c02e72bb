import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { CredentialsCipher, UnavailableError } from '@subshare/core';
import { harness } from '../support/harness.js';
import { useMailboxNodes } from '../support/mailbox-nodes.js';
import { netflixLink, netflixMail } from '../support/mailboxes.js';
import { waitFor } from '../support/wait.js';

/**
 * One reader per mailbox in the cluster, with two nodes (containers with their own database events
 * connection, as two processes have) on the file's real PostgreSQL and a real Dovecot: the first to
 * poll owns the mailbox and alone talks IMAP; the other answers from the board; when the owner's
 * session ends (pg_terminate_backend, as a SIGKILL does), the other takes the mailbox over. The fast
 * 503 without an events connection (a time limit): test/serial/mailbox-ownership.test.ts.
 */
describe('mailbox ownership: one reader per mailbox across processes (advisory lock + board)', function () {
  this.timeout(60_000);
  const nodes = useMailboxNodes();
  const { node, mailbox, reads, lockHolder, recently } = nodes;

  it('the first poller owns the mailbox and alone reads it; the other answers from the board, a new link at once', async () => {
    const [owner, other] = [node(), node()];
    const { target, email } = await mailbox();
    const since = recently();

    expect(await owner.reader.latest(target, 'householdLink', since)).to.equal(null);
    expect(await lockHolder(target.mailboxId)).to.be.a('number');
    expect(await other.reader.latest(target, 'householdLink', since)).to.equal(null);

    const link = netflixLink('travel');
    await nodes.dovecot.deliver(email, netflixMail(email, link));
    // The owner's watch hears it and publishes it: the other process sees it without reading.
    const found = await waitFor(() => other.reader.latest(target, 'householdLink', since), { what: 'the link through the other node', intervalMs: 100 });
    expect(found.value).to.equal(link);
    expect((await owner.reader.latest(target, 'householdLink', since))?.value).to.equal(link);

    expect(reads(owner, target.mailboxId)).to.equal(1);
    expect(reads(other, target.mailboxId)).to.equal(0);
    expect(other.said().some((line) => line.msg === 'mailbox owned by this process' && line.mailboxId === target.mailboxId)).to.equal(false);

    // On the board the link is encrypted, and the other node's polls keep the owner's watch alive.
    const stored = await harness().knex('mailbox_found_mail').where({ mailbox_id: target.mailboxId });
    expect(stored).to.have.length(1);
    expect(stored[0].value_encrypted).to.match(/^v1:/);
    expect(JSON.stringify(stored)).to.not.contain(link.split('nftoken=')[1].slice(0, 20));
    const before = await harness().knex('mailbox_read_state').where({ mailbox_id: target.mailboxId }).first('wanted_at', 'live');
    expect(before.live).to.equal(true);
    await other.reader.latest(target, 'householdLink', since);
    const after = await harness().knex('mailbox_read_state').where({ mailbox_id: target.mailboxId }).first('wanted_at');
    expect(after.wanted_at.getTime()).to.be.above(before.wanted_at.getTime());
  });

  it('a poll for an earlier moment than the board covers asks the owner to read, and gets its answer', async () => {
    const [owner, other] = [node(), node()];
    const { target, email } = await mailbox();
    const older = netflixLink('household');
    await nodes.dovecot.deliver(email, netflixMail(email, older, new Date(Date.now() - 5 * 60_000)));

    // The owner covers only the last minute: the older link is not on the board.
    expect(await owner.reader.latest(target, 'householdLink', new Date(Date.now() - 60_000))).to.equal(null);
    expect(reads(owner, target.mailboxId)).to.equal(1);
    const found = await other.reader.latest(target, 'householdLink', new Date(Date.now() - 10 * 60_000));
    expect(found?.value).to.equal(older);
    expect(reads(owner, target.mailboxId)).to.equal(2);
    expect(reads(other, target.mailboxId)).to.equal(0);
  });

  it('a read that fails reaches the other node as mailbox_unavailable', async () => {
    const [owner, other] = [node(), node()];
    const { target } = await mailbox();
    await owner.reader.latest(target, 'householdLink', recently());
    await nodes.dovecot.stop();
    try {
      // Earlier than the board covers: the owner must read, and cannot.
      const failure = await other.reader.latest(target, 'householdLink', new Date(Date.now() - 10 * 60_000)).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(UnavailableError);
      expect((failure as UnavailableError).code).to.equal('mailbox_unavailable');
      expect(reads(other, target.mailboxId)).to.equal(0);
    } finally {
      await nodes.dovecot.start();
    }
  });

  it("when the owner's session ends, the next poll elsewhere takes the mailbox over and finds new mail", async () => {
    const [owner, other] = [node(), node()];
    const { target, email } = await mailbox();
    const since = recently();
    await owner.reader.latest(target, 'householdLink', since);
    await other.reader.latest(target, 'householdLink', since);
    const ownerPid = await lockHolder(target.mailboxId);
    if (ownerPid === undefined) throw new Error('nobody holds the lock');

    // What a SIGKILL does to the owner's database session: gone, and its lock with it.
    await harness().knex.raw('select pg_terminate_backend(?)', [ownerPid]);
    await waitFor(() => owner.said().some((line) => line.msg === 'mailbox ownership lost with the database events connection'), {
      what: 'the owner to notice',
    });

    const link = netflixLink('travel');
    await nodes.dovecot.deliver(email, netflixMail(email, link));
    const found = await waitFor(() => other.reader.latest(target, 'householdLink', since), { what: 'the link through the new owner', intervalMs: 100 });
    expect(found.value).to.equal(link);
    expect(other.said().some((line) => line.msg === 'mailbox owned by this process' && line.mailboxId === target.mailboxId)).to.equal(true);
    expect(reads(other, target.mailboxId)).to.equal(1);
    const holder = await lockHolder(target.mailboxId);
    expect(holder).to.be.a('number');
    expect(holder).to.not.equal(ownerPid);
    // The old owner, back on a new connection, now answers from the board.
    expect((await owner.reader.latest(target, 'householdLink', since))?.value).to.equal(link);
    expect(reads(owner, target.mailboxId)).to.equal(1);
  });

  it("lets go once nobody in the cluster polled for 150 s: the idle rule reads the board's last poll, which every process moves", async () => {
    const [owner, other] = [node(), node()];
    const { target } = await mailbox();
    await owner.reader.latest(target, 'householdLink', recently());
    await other.reader.latest(target, 'householdLink', recently());
    expect(await lockHolder(target.mailboxId)).to.be.a('number');
    // The whole cluster's last poll, 151 s ago (the first test shows the other's polls move it).
    await harness()
      .knex('mailbox_read_state')
      .where({ mailbox_id: target.mailboxId })
      .update({ wanted_at: harness().knex.raw("now() - interval '151 seconds'") });
    await waitFor(() => owner.said().some((line) => line.msg === 'mailbox let go' && line.mailboxId === target.mailboxId), {
      what: 'the owner to let go of the idle mailbox',
      timeoutMs: 15_000,
    });
    expect(await lockHolder(target.mailboxId)).to.equal(undefined);
    const board = await harness().knex('mailbox_read_state').where({ mailbox_id: target.mailboxId }).first('owner', 'live');
    expect(board).to.deep.equal({ owner: null, live: false });
  });

  it('after a CREDENTIALS_KEY rotation the board is written again under the new key (rows of the old key are never decrypted)', async () => {
    const before = node();
    const { target, email } = await mailbox();
    const since = recently();
    const link = netflixLink('travel');
    await nodes.dovecot.deliver(email, netflixMail(email, link));
    expect((await before.reader.latest(target, 'householdLink', since))?.value).to.equal(link);
    await before.reader.close();

    // The cluster restarted with a new key.
    const key = randomBytes(32);
    const [owner, other] = [node(undefined, key), node(undefined, key)];
    expect((await owner.reader.latest(target, 'householdLink', since))?.value).to.equal(link);
    expect((await other.reader.latest(target, 'householdLink', since))?.value).to.equal(link);
    expect(reads(other, target.mailboxId)).to.equal(0);
    const stored = await harness().knex('mailbox_found_mail').where({ mailbox_id: target.mailboxId }).first('value_encrypted');
    expect(new CredentialsCipher(key).decrypt(stored.value_encrypted)).to.equal(link);
  });

  it('gives the mailbox up at close, so another process takes it at once', async () => {
    const [owner, other] = [node(), node()];
    const { target } = await mailbox();
    await owner.reader.latest(target, 'householdLink', recently());
    await owner.reader.close();
    expect(await lockHolder(target.mailboxId)).to.equal(undefined);
    await other.reader.latest(target, 'householdLink', recently());
    expect(reads(other, target.mailboxId)).to.equal(1);
  });
});
