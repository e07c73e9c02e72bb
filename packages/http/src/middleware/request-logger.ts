/**
 * Access log through pino. Only the path is logged, never the query string (it can carry
 * e-mail addresses and OAuth codes) and never authorization or cookie headers. Each line
 * names the request by its `requestId` (middleware/request-id.ts), as every other line of
 * that request does; it is passed here because 'finish' fires outside the request's context.
 *
 * Successful requests are logged at debug, client errors at info, server errors at error. The
 * level is decided when the response is finished and nothing is built for a line that the
 * logger's level drops: no child logger per request, no serializers. (pino-http built both for
 * every request, about a tenth of the catalog calls' time in bench/api.mjs.)
 */
import type { Logger } from '@subshare/core';
import type { BareMiddleware } from './bare.js';

export function requestLogger(logger: Logger): BareMiddleware {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const done = (aborted: boolean) => {
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : aborted || status >= 400 ? 'info' : 'debug';
      if (!logger.isLevelEnabled(level)) return;
      const responseTime = Number(process.hrtime.bigint() - started) / 1e6;
      logger[level](
        {
          requestId: res.locals.requestId as string | undefined,
          // Express's routers rewrite req.url on the way; originalUrl keeps what was asked.
          req: { method: req.method, path: ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0] },
          res: { statusCode: status },
          responseTime: Math.round(responseTime * 10) / 10,
        },
        aborted ? 'request aborted' : 'request completed',
      );
    };
    // 'close' follows 'finish' on every answer, and comes alone when the client went away first.
    res.once('close', () => done(!res.writableFinished));
    next();
  };
}
