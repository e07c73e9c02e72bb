/**
 * Password hashing: argon2id with OWASP's minimum (19 MiB memory, 2 passes, 1 lane).
 * The parameters are stored inside each hash, so raising them later keeps old hashes valid.
 */
import { hash, verify, Algorithm } from '@node-rs/argon2';

export const ARGON2_OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 18;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false; // a malformed stored hash never authenticates
  }
}
