#!/usr/bin/env node
// The `subshare` command. Runs the compiled CLI in this process; in a source checkout that has not
// been built yet, it runs the TypeScript sources through tsx (a development dependency) in a child
// process, passes the stop signals on to it and exits as it does, so a process manager's SIGTERM
// still stops the shop. Plain syntax after check-node.js, which must run first.
import './check-node.js';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

var compiled = new URL('../dist/main.js', import.meta.url);
if (existsSync(fileURLToPath(compiled))) {
  // A command loads some 2,000 modules before it does anything. Node 22.1 and later keep their
  // compiled code on disk (the system's temporary directory) when asked; from the second run on,
  // a command starts about 15% sooner. Node 20 has no such call; a cache it cannot write is skipped.
  if (typeof module.enableCompileCache === 'function') module.enableCompileCache();
  import(compiled.href);
} else {
  var source = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  var child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', source].concat(process.argv.slice(2)), { stdio: 'inherit' });
  var forward = function (signal) {
    child.kill(signal);
  };
  ['SIGINT', 'SIGTERM', 'SIGHUP'].forEach(function (signal) {
    process.on(signal, forward);
  });
  child.on('error', function () {
    console.error('subshare is not built: run `npm run build` first.');
    process.exit(1);
  });
  child.on('exit', function (code, signal) {
    if (signal) {
      // End the way the child ended, so whoever started us sees the same signal.
      ['SIGINT', 'SIGTERM', 'SIGHUP'].forEach(function (name) {
        process.removeListener(name, forward);
      });
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}
