/**
 * Access log through pino. Only the path is logged, never the query string (it can carry
 * e-mail addresses and OAuth codes) and never authorization or cookie headers.
 */
import { pinoHttp } from 'pino-http';
import type { Logger } from '@subshare/core';

export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
    serializers: {
      req: (req: { method: string; url: string; id: unknown }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
