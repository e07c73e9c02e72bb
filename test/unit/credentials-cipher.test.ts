import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { CredentialsCipher, CredentialsCipherError, credentialsKeyId, parseCredentialsKey, storedKeyId } from '@subshare/core';

const FORMAT = /^v1:[0-9a-f]{8}:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/]*={0,2}$/;

function refused(fn: () => unknown, reason: string): CredentialsCipherError {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(CredentialsCipherError);
    expect((error as CredentialsCipherError).reason).to.equal(reason);
    expect((error as CredentialsCipherError).type).to.equal('internal');
    return error as CredentialsCipherError;
  }
  return expect.fail(`expected a ${reason} refusal`);
}

/** Replaces one base64 field of a stored value (1 iv, 2 tag, 3 ciphertext) with `change(bytes)`. */
function alter(stored: string, field: 2 | 3 | 4, change: (bytes: Buffer) => Buffer): string {
  const parts = stored.split(':');
  parts[field] = change(Buffer.from(parts[field], 'base64')).toString('base64');
  return parts.join(':');
}

const flipFirstBit = (bytes: Buffer) => {
  const copy = Buffer.from(bytes);
  copy[0] ^= 1;
  return copy;
};

describe('credentials cipher (AES-256-GCM at rest)', () => {
  const key = randomBytes(32);
  const cipher = new CredentialsCipher(key);

  it('round-trips passwords, including empty, unicode and long ones', () => {
    for (const plain of ['s3cret-Pass', '', 'pässwörd 비밀번호 🔑', 'x'.repeat(5_000), 'with:colons:inside']) {
      expect(cipher.decrypt(cipher.encrypt(plain))).to.equal(plain);
    }
  });

  it('stores v1:<keyId>:<iv>:<tag>:<ciphertext>, the key id being the first 8 hex digits of sha256(key)', () => {
    const stored = cipher.encrypt('hunter2-hunter2');
    expect(stored).to.match(FORMAT);
    const [version, keyId, iv, tag, ciphertext] = stored.split(':');
    expect(version).to.equal('v1');
    expect(keyId).to.equal(createHash('sha256').update(key).digest('hex').slice(0, 8));
    expect(keyId).to.equal(cipher.keyId).and.to.equal(credentialsKeyId(key)).and.to.equal(storedKeyId(stored));
    expect(Buffer.from(iv, 'base64')).to.have.length(12);
    expect(Buffer.from(tag, 'base64')).to.have.length(16);
    expect(Buffer.from(ciphertext, 'base64')).to.have.length('hunter2-hunter2'.length);
    expect(stored).to.not.contain('hunter2');
  });

  it('uses a fresh random IV per value: the same password never gives the same stored value', () => {
    const values = Array.from({ length: 50 }, () => cipher.encrypt('same-password'));
    expect(new Set(values).size).to.equal(50);
    expect(new Set(values.map((value) => value.split(':')[2])).size).to.equal(50);
  });

  it('refuses a value written with another key, by its key id, before trying to decrypt', () => {
    const other = new CredentialsCipher(randomBytes(32));
    const error = refused(() => other.decrypt(cipher.encrypt('not-yours')), 'wrong_key');
    expect(error.code).to.equal('credentials_wrong_key');
    expect(error.message).to.not.contain('not-yours');
  });

  it('refuses a value whose ciphertext, tag or IV was altered', () => {
    const stored = cipher.encrypt('integrity-matters');
    refused(() => cipher.decrypt(alter(stored, 4, flipFirstBit)), 'tampered');
    refused(() => cipher.decrypt(alter(stored, 3, flipFirstBit)), 'tampered');
    refused(() => cipher.decrypt(alter(stored, 2, flipFirstBit)), 'tampered');
    refused(() => cipher.decrypt(alter(stored, 4, (bytes) => bytes.subarray(0, bytes.length - 1))), 'tampered');
  });

  it('binds the key id to the value: relabelling a value under another key id does not decrypt', () => {
    const stored = cipher.encrypt('bound');
    const otherKey = randomBytes(32);
    const relabelled = stored.replace(`:${cipher.keyId}:`, `:${credentialsKeyId(otherKey)}:`);
    refused(() => new CredentialsCipher(otherKey).decrypt(relabelled), 'tampered');
  });

  it('refuses plaintext and other malformed values', () => {
    for (const value of ['plain-password', '', 'v2:abcdef12:a:b:c', `v1:${cipher.keyId}:short:tag:data`, cipher.encrypt('x').replace(/^v1/, 'v0')]) {
      refused(() => cipher.decrypt(value), 'malformed');
    }
  });

  it('says which values need rotation: those not written with its key', () => {
    const newer = new CredentialsCipher(randomBytes(32));
    const onOld = cipher.encrypt('rotate-me');
    expect(cipher.needsRotation(onOld)).to.equal(false);
    expect(newer.needsRotation(onOld)).to.equal(true);
    expect(newer.needsRotation(newer.encrypt('fresh'))).to.equal(false);
    expect(newer.needsRotation('plain-password')).to.equal(true);
  });

  it('takes only 32-byte keys, given as 64 hex digits or base64', () => {
    expect(() => new CredentialsCipher(randomBytes(16))).to.throw(RangeError);
    const raw = randomBytes(32);
    expect(parseCredentialsKey(raw.toString('hex')).equals(raw)).to.equal(true);
    expect(parseCredentialsKey(raw.toString('base64')).equals(raw)).to.equal(true);
    expect(() => parseCredentialsKey(randomBytes(31).toString('base64'))).to.throw(RangeError);
    expect(() => parseCredentialsKey('not a key at all!')).to.throw(RangeError);
  });
});
