/**
 * A small filesystem of the test's own: a tmpfs of a few MB, mounted (as root, or through
 * `sudo -n`) on a fresh directory and owned by the given user, so a test can fill it up and meet
 * a real "No space left on device". `release` unmounts it and removes the directory.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SmallFilesystem {
  dir: string;
  release(): Promise<void>;
}

async function asRoot(command: string, args: string[]): Promise<void> {
  if (process.getuid?.() === 0) await run(command, args);
  else await run('sudo', ['-n', command, ...args]);
}

export async function mountSmallFilesystem(megabytes: number, owner: { uid: number; gid: number }): Promise<SmallFilesystem> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'subshare-small-fs-'));
  try {
    await asRoot('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700,uid=${owner.uid},gid=${owner.gid}`, 'tmpfs', dir]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`A small filesystem needs root or password-less sudo to mount a tmpfs: ${(error as Error).message}`, { cause: error });
  }
  return {
    dir,
    async release() {
      await asRoot('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
