import { Command } from 'commander';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCredentialsKey, ValidationError, AccountsService } from '@subshare/core';
import { runOnce } from '../context.js';
import { readSecret, readStandardInput, refuseOnCommandLine } from '../secret-input.js';

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

const NEW_KEY = { what: 'new key', env: 'SUBSHARE_NEW_KEY', stdinFlag: '--keys-stdin', prompt: 'The new key', confirm: true };
const OLD_KEY = {
  what: 'old key',
  env: 'SUBSHARE_OLD_KEY',
  stdinFlag: '--keys-stdin',
  prompt: 'The old key (Enter: the configured CREDENTIALS_KEY)',
  optional: true,
};

/** The keys: both from standard input's lines, else from the environment, else asked for on the terminal. */
async function readKeys(fromStdin: boolean): Promise<{ newKey: string; oldKey?: string }> {
  if (fromStdin) {
    const [newKey = '', oldKey] = (await readStandardInput()).split(/\r?\n/);
    return { newKey: (await readSecret(NEW_KEY, newKey))!, oldKey: oldKey?.trim() ? oldKey : undefined };
  }
  const asked = !process.env.SUBSHARE_NEW_KEY && process.stdin.isTTY;
  const newKey = (await readSecret(NEW_KEY))!;
  // The old key is asked for only together with the new one: SUBSHARE_NEW_KEY alone means the configured key.
  const oldKey = asked || process.env.SUBSHARE_OLD_KEY ? await readSecret(OLD_KEY) : undefined;
  return { newKey, oldKey };
}

export const rotateCredentialsKeyCommand = () =>
  refuseOnCommandLine(
    refuseOnCommandLine(
      new Command('rotate-credentials-key')
        .description('re-encrypt every stored account and mailbox password with a new CREDENTIALS_KEY, in one transaction')
        .option(
          '--keys-stdin',
          'read the new key from the first line of standard input and the old one, if it is not the configured CREDENTIALS_KEY, from the second',
        )
        .addHelpText(
          'after',
          '\nThe keys are 32 bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`). They are read from standard input\n' +
            '(--keys-stdin), else from SUBSHARE_NEW_KEY and SUBSHARE_OLD_KEY, else asked for on the terminal; never from the command line.\n' +
            'The old key defaults to the configured CREDENTIALS_KEY.\n\n' +
            'Then set CREDENTIALS_KEY to the new key for every serve and worker process and restart them (demo mode: DATA_DIR/secrets.json\n' +
            'is updated for you). Passwords written by a process still on the old key afterwards: run again with the old key given too.',
        )
        .action(async (options: { keysStdin?: boolean }) => {
          const keys = await readKeys(Boolean(options.keysStdin));
          const newKey = keyOption('The new key', keys.newKey);
          const oldKey = keys.oldKey === undefined ? undefined : keyOption('The old key', keys.oldKey);
          await runOnce({ withoutJobs: true }, async ({ container, config }) => {
            const result = await container.get(AccountsService).rotateCredentialsKey({ label: 'cli' }, oldKey ?? config.credentialsKey, newKey);
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
        }),
      '--new-key <key>',
      'Use --keys-stdin, SUBSHARE_NEW_KEY, or leave it out to be asked.',
    ),
    '--old-key <key>',
    'Use --keys-stdin (second line), SUBSHARE_OLD_KEY, or leave it out to be asked.',
  );
