/**
 * New mailboxes get an address a person can read out and type (two words and four digits,
 * e.g. `quiet-harbor-4821@mail.example`) and a password nobody has to: 24 characters drawn
 * with the crypto RNG from letters and digits without look-alikes (about 139 bits).
 */
import { randomInt } from 'node:crypto';

const ADJECTIVES: readonly string[] = `
  amber ample azure bold brave brisk calm clear clever cosy crisp daring eager early fair fancy fresh
  gentle glad golden grand happy hidden honest jolly keen kind lively lucky mellow merry mighty misty
  modest noble olive polite proud quick quiet rapid rosy shiny silent silver smart snowy solid steady
  sunny swift tidy urban vivid warm witty
`
  .trim()
  .split(/\s+/);

const NOUNS: readonly string[] = `
  anchor badger beacon birch breeze brook canyon cedar cloud comet coral delta dune falcon fern field
  forest garden glacier harbor hazel heron island lagoon lantern maple meadow meteor orbit otter panda
  pebble pine planet prairie raven reef ridge river robin sparrow spruce summit thistle tiger valley
  willow wren zephyr lotus mango quartz sequoia tundra
`
  .trim()
  .split(/\s+/);

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
export const MAILBOX_PASSWORD_LENGTH = 24;

const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)];

export function generateMailboxAddress(domain: string): string {
  const digits = String(randomInt(10_000)).padStart(4, '0');
  return `${pick(ADJECTIVES)}-${pick(NOUNS)}-${digits}@${domain.toLowerCase()}`;
}

/** Always holds an upper-case letter, a lower-case letter and a digit (common mail-server rules). */
export function generateMailboxPassword(length = MAILBOX_PASSWORD_LENGTH): string {
  for (;;) {
    let password = '';
    for (let i = 0; i < length; i += 1) password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
    if (/[A-Z]/.test(password) && /[a-z]/.test(password) && /[0-9]/.test(password)) return password;
  }
}
