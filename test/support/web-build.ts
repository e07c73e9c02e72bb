/** Browser tests need the built web app; build it once if it is missing or stale. */
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let built = false;

export function ensureWebBuilt(): void {
  if (built) return;
  execSync('node scripts/ensure-built.mjs --web-only', { cwd: ROOT, stdio: 'inherit' });
  built = true;
}
