/**
 * How a command takes a password or key: never from its command line, which every user of the
 * machine sees in `ps` and which shell history keeps. In this order:
 *   1. standard input, when the operator says so (`--password-stdin`, as `docker login` does):
 *      `pass show shop/admin | subshare create-admin --email … --password-stdin`;
 *   2. an environment variable (SUBSHARE_PASSWORD…), for scripts and containers;
 *   3. a prompt on the terminal, without echo (asked twice for a new password).
 * Without a terminal and without 1 or 2 the command stops with one line saying so, rather than
 * hang waiting for input nobody will type. The old `--password <p>` style options are refused
 * with the same advice (see `refuseOnCommandLine`).
 */
import { Option, type Command } from 'commander';
import { ValidationError } from '@subshare/core';

export interface SecretSpec {
  /** What it is, for messages: "password", "new key". */
  what: string;
  /** The environment variable that may hold it. */
  env: string;
  /** The option that reads it from standard input, for messages. */
  stdinFlag: string;
  /** The prompt's question. */
  prompt: string;
  /** Ask twice on a terminal (a new password nobody has typed before). */
  confirm?: boolean;
  /** An empty answer is allowed (the prompt of an optional secret); undefined is returned then. */
  optional?: boolean;
}

/** Reads the whole of standard input; a final line break (what `echo` and files add) is not part of the secret. */
export async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The secret: `fromStdin` (what the caller read for its --…-stdin option), else the environment, else a prompt on a terminal. */
export async function readSecret(spec: SecretSpec, fromStdin?: string): Promise<string | undefined> {
  if (fromStdin !== undefined) return nonEmpty(spec, fromStdin);
  const fromEnv = process.env[spec.env];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (!process.stdin.isTTY) {
    if (spec.optional) return undefined;
    throw new ValidationError(`The ${spec.what} is missing: set ${spec.env}, pipe it in with ${spec.stdinFlag}, or run the command on a terminal to be asked.`);
  }
  const answer = await promptHidden(`${spec.prompt}: `);
  if (answer === '' && spec.optional) return undefined;
  if (spec.confirm && (await promptHidden(`${spec.prompt} (again): `)) !== answer) {
    throw new ValidationError(`The two ${spec.what}s differ; nothing was changed.`);
  }
  return nonEmpty(spec, answer);
}

function nonEmpty(spec: SecretSpec, value: string): string {
  if (value === '') throw new ValidationError(`The ${spec.what} is empty.`);
  return value;
}

/**
 * Asks on the terminal (the question on stderr, so stdout stays the command's output) and reads
 * one line in raw mode, so nothing typed is echoed. Raw mode comes first: with the question shown
 * before it, an answer typed (or pasted) the moment the question appeared could still be echoed by
 * the terminal (the pty test caught it once under load). Ctrl+C cancels the command.
 */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  stdin.setRawMode(true);
  process.stderr.write(question);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (settle: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      settle();
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish(() => resolve(value));
        if (char === '\u0003') return finish(() => reject(new ValidationError('Cancelled; nothing was changed.')));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    stdin.on('data', onData);
  });
}

/**
 * Keeps an old `--password <p>` style option known, hidden from the help, only to refuse it with
 * the way to do it instead (an unknown-option error would not say why).
 */
export function refuseOnCommandLine(command: Command, flags: string, instead: string): Command {
  const option = new Option(flags).hideHelp();
  command.addOption(option);
  command.hook('preAction', (_, action) => {
    if (action.getOptionValue(option.attributeName()) !== undefined) {
      throw new ValidationError(
        `${option.long} is not accepted: a secret on the command line is visible to every user in \`ps\` and kept in shell history. ${instead}`,
      );
    }
  });
  return command;
}
