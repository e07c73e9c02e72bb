/**
 * `subshare <command>`: the operator's tool. Every command builds the same container as the
 * server, so what it does goes through the same rules.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError, DomainError } from '@subshare/core';
import { SHUTDOWN_DEADLINE_MS, stopRequested } from './context.js';
import { COMMANDS } from './commands.js';

/** The product's version, from the root package.json (two levels above both src/ and dist/). */
const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('subshare')
  .description('subshare: a shop for shared subscriptions')
  .version(version, '-V, --version', 'print the version')
  .showHelpAfterError();
for (const command of COMMANDS) program.addCommand(command());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Cut short by a signal: the shutdown (context.ts) exits once what is open has stopped.
  if (stopRequested()) await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_DEADLINE_MS + 1_000));
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  if (error instanceof DomainError) {
    const details = error.errors ? ` (${Object.values(error.errors).join('; ')})` : '';
    console.error(`${error.message}${details}`);
    process.exit(1);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
