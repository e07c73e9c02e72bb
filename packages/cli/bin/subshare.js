#!/usr/bin/env node
// The `subshare` command. Runs the compiled CLI; in a source checkout that has not been built
// yet, it runs the TypeScript sources through tsx instead (a development dependency).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/main.js', import.meta.url);
if (existsSync(fileURLToPath(compiled))) {
  await import(compiled.href);
} else {
  const source = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', source, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.error) {
    console.error('subshare is not built: run `npm run build` first.');
    process.exit(1);
  }
  process.exit(result.status ?? 1);
}
