import { expect } from 'chai';
import { Readable } from 'node:stream';
import { cachedLookups, DNS_ANSWER_MS, KEPT_BYTES, takeIn, type MailAuthenticator, type MailCheck } from '@subshare/core';

/** The DKIM check's DNS lookups: shared, remembered for a while, and a transient failure never remembered. */
describe('DKIM and DMARC lookups (cachedLookups)', () => {
  const failure = (code: string) => Object.assign(new Error(code), { code });

  it('asks once for lookups made at once and for the same name within the answer time, again after it', async () => {
    let clock = 0;
    const asked: string[] = [];
    const lookup = cachedLookups(
      async (name, type) => {
        asked.push(`${type} ${name}`);
        return [['v=DKIM1; p=abc']];
      },
      () => clock,
    );
    const answers = await Promise.all([lookup('s1._domainkey.netflix.com', 'TXT'), lookup('S1._domainkey.netflix.com', 'TXT')]);
    expect(answers).to.deep.equal([[['v=DKIM1; p=abc']], [['v=DKIM1; p=abc']]]);
    clock += DNS_ANSWER_MS - 1;
    await lookup('s1._domainkey.netflix.com', 'TXT');
    expect(asked).to.have.length(1);
    clock += 1;
    await lookup('s1._domainkey.netflix.com', 'TXT');
    expect(asked).to.have.length(2);
  });

  it('tries a timed-out lookup once more, and does not remember a failure that says nothing about the name', async () => {
    const results = [failure('ETIMEOUT'), failure('ETIMEOUT'), [['v=DMARC1; p=reject']]];
    let calls = 0;
    const lookup = cachedLookups(async () => {
      const next = results[calls++];
      if (next instanceof Error) throw next;
      return next;
    });
    let error: unknown;
    await lookup('_dmarc.netflix.com', 'TXT').catch((caught: unknown) => (error = caught));
    expect((error as { code?: string }).code).to.equal('ETIMEOUT');
    expect(calls).to.equal(2);
    expect(await lookup('_dmarc.netflix.com', 'TXT')).to.deep.equal([['v=DMARC1; p=reject']]);
    expect(calls).to.equal(3);
  });

  it('remembers that a name has no record (an answer, not a failure)', async () => {
    let calls = 0;
    const lookup = cachedLookups(async () => {
      calls += 1;
      throw failure('ENOTFOUND');
    });
    for (let index = 0; index < 3; index += 1) await lookup('_dmarc.example.test', 'TXT').catch(() => undefined);
    expect(calls).to.equal(1);
  });
});

/** A check that hit a DNS failure is made again from the kept message, not judged on a lost answer. */
describe('taking a message in (takeIn) after a DNS failure', () => {
  const raw = 'From: Netflix <info@account.netflix.com>\r\nTo: box@mail.localhost\r\nSubject: Your password has been changed\r\n\r\nHello\r\n';

  /** Our own port (MailAuthenticator), answering a scripted list of verdicts; it drains what it is given, as the real one does. */
  function scripted(verdicts: MailCheck[]): MailAuthenticator & { calls: number } {
    return {
      calls: 0,
      async check(message) {
        for await (const chunk of message) void chunk;
        return verdicts[this.calls++];
      },
    };
  }

  it('checks again while the verdict is transient, and keeps the settled one', async () => {
    const authenticator = scripted([
      { authentication: 'badSignature', transient: true },
      { authentication: 'verified', domain: 'account.netflix.com' },
    ]);
    const taken = await takeIn(Readable.from([Buffer.from(raw)]), authenticator);
    expect(authenticator.calls).to.equal(2);
    expect(taken.authentication).to.equal('verified');
  });

  it('gives up after two more checks: the mail stays unverified', async () => {
    const transient: MailCheck = { authentication: 'badSignature', transient: true };
    const authenticator = scripted([transient, transient, transient, { authentication: 'verified', domain: 'account.netflix.com' }]);
    const taken = await takeIn(Readable.from([Buffer.from(raw)]), authenticator);
    expect(authenticator.calls).to.equal(3);
    expect(taken.authentication).to.equal('badSignature');
  });

  it('checks a message too large to keep again from a fresh download, not from the kept prefix', async () => {
    // The CI run's case: eight 20 MB mails, one DKIM key lookup lost under load.
    const large = Buffer.concat([Buffer.from(raw), Buffer.alloc(KEPT_BYTES, 'a')]);
    const authenticator = scripted([
      { authentication: 'badSignature', transient: true },
      { authentication: 'verified', domain: 'account.netflix.com' },
    ]);
    let downloads = 0;
    const taken = await takeIn(Readable.from([large]), authenticator, async () => {
      downloads += 1;
      return Readable.from([large]);
    });
    expect(taken.truncated).to.equal(true);
    expect(downloads).to.equal(1);
    expect(authenticator.calls).to.equal(2);
    expect(taken.authentication).to.equal('verified');
  });

  it('does not check again a verdict about the signature itself', async () => {
    const authenticator = scripted([{ authentication: 'badSignature' }, { authentication: 'verified', domain: 'account.netflix.com' }]);
    const taken = await takeIn(Readable.from([Buffer.from(raw)]), authenticator);
    expect(authenticator.calls).to.equal(1);
    expect(taken.authentication).to.equal('badSignature');
  });
});
