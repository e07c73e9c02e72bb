/**
 * The address the shop's e-mails link to, shared by its processes (issue 35). A shop started
 * without PUBLIC_URL links to `http://127.0.0.1:$PORT`; a command run beside it (`send-email`,
 * `expire-due`, `renew-due`, a separate `worker`) does not know that PORT and wrote links to port
 * 3000. The serving process records its public URL in DATA_DIR once it listens; the other
 * processes of the same DATA_DIR take it when their own environment sets no PUBLIC_URL. An
 * explicit PUBLIC_URL always wins (production sets it for every process: docs/configuration.md).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '@subshare/core';

const FILE = 'public-url';

/** Records the serving shop's public URL (a failure to write is only logged by the caller). */
export function recordShopUrl(config: Pick<AppConfig, 'dataDir' | 'publicUrl'>): void {
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(path.join(config.dataDir, FILE), `${config.publicUrl}\n`);
}

/** `env` with the serving shop's public URL as PUBLIC_URL, when it sets none and the shop recorded one. */
export function withShopUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.PUBLIC_URL?.trim()) return env;
  let recorded: string;
  try {
    recorded = readFileSync(path.join(path.resolve(env.DATA_DIR?.trim() || '.data'), FILE), 'utf8').trim();
  } catch {
    return env;
  }
  try {
    const url = new URL(recorded);
    return url.protocol === 'http:' || url.protocol === 'https:' ? { ...env, PUBLIC_URL: recorded } : env;
  } catch {
    return env;
  }
}
