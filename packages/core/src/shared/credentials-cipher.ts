/**
 * Encryption at rest for the passwords the shop must be able to read back (platform accounts
 * and mailboxes): AES-256-GCM, a fresh random 12-byte IV per value, the 16-byte tag kept.
 *
 * Stored format: `v1:<keyId>:<iv b64>:<tag b64>:<ciphertext b64>`. The key id is the first 8
 * hex digits of sha256(key): it says which key wrote a value, so a key rotation can tell old
 * rows from new ones and a wrong key is refused by name before any decryption is tried. It is
 * a fingerprint, not a secret (32 bits of a hash of a 256-bit random key reveal nothing).
 * The key id is also bound into the GCM additional data, so it cannot be swapped on a value.
 *
 * Nothing here logs; errors never carry the plaintext or the key.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { DomainError } from './errors.js';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const STORED = /^v1:([0-9a-f]{8}):([A-Za-z0-9+/]+={0,2}):([A-Za-z0-9+/]+={0,2}):([A-Za-z0-9+/]*={0,2})$/;

export type CredentialsCipherFailure = 'malformed' | 'wrong_key' | 'tampered';

/**
 * A stored credential could not be read: not our format, written under another key, or
 * altered. It is a server-side fault (HTTP 500), and its message names no secret.
 */
export class CredentialsCipherError extends DomainError {
  readonly reason: CredentialsCipherFailure;
  constructor(reason: CredentialsCipherFailure, message: string) {
    super('internal', message, { code: `credentials_${reason}` });
    this.reason = reason;
  }
}

/** The short fingerprint that names a key in stored values. */
export function credentialsKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** Parses a 32-byte key given as 64 hex digits or base64 (as CREDENTIALS_KEY is); throws on anything else. */
export function parseCredentialsKey(raw: string): Buffer {
  const trimmed = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)
      ? Buffer.from(trimmed, 'base64')
      : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) throw new RangeError('A credentials key must be 32 bytes, given as 64 hex digits or base64.');
  return key;
}

interface ParsedValue {
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

function parse(stored: string): ParsedValue {
  const match = STORED.exec(stored);
  if (!match) throw new CredentialsCipherError('malformed', 'A stored credential is not in the expected encrypted format.');
  const [, keyId, iv, tag, ciphertext] = match;
  const parsed = { keyId, iv: Buffer.from(iv, 'base64'), tag: Buffer.from(tag, 'base64'), ciphertext: Buffer.from(ciphertext, 'base64') };
  if (parsed.iv.length !== IV_BYTES || parsed.tag.length !== TAG_BYTES) {
    throw new CredentialsCipherError('malformed', 'A stored credential is not in the expected encrypted format.');
  }
  return parsed;
}

/** The key id a stored value was written with, or undefined when it is not in our format. */
export function storedKeyId(stored: string): string | undefined {
  return STORED.exec(stored)?.[1];
}

export class CredentialsCipher {
  readonly keyId: string;
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new RangeError('The credentials key must be 32 bytes.');
    this.#key = Buffer.from(key);
    this.keyId = credentialsKeyId(key);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.aad(this.keyId));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, this.keyId, iv.toString('base64'), tag.toString('base64'), ciphertext.toString('base64')].join(':');
  }

  /** The plaintext; throws CredentialsCipherError when the value is malformed, from another key, or altered. */
  decrypt(stored: string): string {
    const value = parse(stored);
    if (value.keyId !== this.keyId) {
      throw new CredentialsCipherError(
        'wrong_key',
        `A stored credential was encrypted with another key (${value.keyId}), not the configured one (${this.keyId}).`,
      );
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, this.#key, value.iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(this.aad(value.keyId));
      decipher.setAuthTag(value.tag);
      return Buffer.concat([decipher.update(value.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      // Same key id but the tag does not verify: the value (or, very unlikely, the key) is not what wrote it.
      throw new CredentialsCipherError('tampered', 'A stored credential failed its integrity check.');
    }
  }

  /** True when the value was not written with this cipher's key (or is not in our format at all). */
  needsRotation(stored: string): boolean {
    return storedKeyId(stored) !== this.keyId;
  }

  private aad(keyId: string): Buffer {
    return Buffer.from(`${VERSION}:${keyId}`, 'utf8');
  }
}
