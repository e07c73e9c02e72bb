import { Command } from 'commander';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ACCOUNTS, parseCredentialsKey, ValidationError, type AccountsService } from '@subshare/core';
import { runOnce } from '../context.js';

function keyOption(name: string, raw: string): Buffer {
  try {
    return parseCredentialsKey(raw);
  } catch {
    throw new ValidationError(`${name} must be 32 bytes, as 64 hex digits or base64.`, undefined, 'invalid_key');
  }
}

/** Demo mode keeps its generated CREDENTIALS_KEY in DATA_DIR/secrets.json: the new key goes there (atomically, mode 600). */
function rewriteDemoKey(dataDir: string, key: Buffer): string | undefined {
  const file = path.join(dataDir, 'secrets.json');
  if (!existsSync(file)) return undefined;
  const secrets = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  secrets.CREDENTIALS_KEY = key.toString('base64');
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  renameSync(temporary, file);
  return file;
}

export const rotateCredentialsKeyCommand = () =>
  new Command('rotate-credentials-key')
    .description('re-encrypt every stored account and mailbox password with a new CREDENTIALS_KEY, in one transaction')
    .requiredOption('--new-key <key>', 'the new key: 32 bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)')
    .option('--old-key <key>', 'the key the passwords are encrypted with now (default: the configured CREDENTIALS_KEY)')
    .addHelpText(
      'after',
      '\nThen set CREDENTIALS_KEY to the new key for every serve and worker process and restart them (demo mode: DATA_DIR/secrets.json\n' +
        'is updated for you). Passwords written by a process still on the old key afterwards: run again with --old-key <old key>.',
    )
    .action(async (options: { newKey: string; oldKey?: string }) => {
      const newKey = keyOption('--new-key', options.newKey);
      const oldKey = options.oldKey === undefined ? undefined : keyOption('--old-key', options.oldKey);
      await runOnce({ withoutJobs: true }, async ({ container, config }) => {
        const result = await container.get<AccountsService>(ACCOUNTS.Service).rotateCredentialsKey({ label: 'cli' }, oldKey ?? config.credentialsKey, newKey);
        console.log(
          `Re-encrypted ${result.mailboxes} mailbox and ${result.accounts} account password(s) from key ${result.fromKeyId} to key ${result.toKeyId}` +
            ` (${result.skipped} already on the new key).`,
        );
        const keyFromEnvironment = Boolean(process.env.CREDENTIALS_KEY?.trim());
        const secretsFile = config.mode === 'demo' && !keyFromEnvironment ? rewriteDemoKey(config.dataDir, newKey) : undefined;
        if (secretsFile) console.log(`Updated CREDENTIALS_KEY in ${secretsFile}. Restart subshare to use it.`);
        else
          console.log(
            'Now set CREDENTIALS_KEY to the new key for every serve and worker process and restart them: until then they cannot read these passwords.',
          );
      });
    });
