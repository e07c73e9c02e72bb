/**
 * One pino logger for every process. Anything that could hold a password, token, code or
 * key is redacted by path, so a careless `log.info({ body })` cannot leak a secret. Every line
 * written while a request or a job runs carries its `requestId` (shared/request-context.ts),
 * also the lines of child loggers and error lines, without anyone passing it along.
 */
import { pino, type Logger } from 'pino';
import { currentRequestId } from './request-context.js';

export type { Logger };

const SECRET_KEYS = [
  'password',
  'newPassword',
  'token',
  'idToken',
  'authToken',
  'accessToken',
  'refreshToken',
  'secret',
  'apiKey',
  'authorization',
  'cookie',
  'credentialsKey',
  'tokenSecret',
];

// `code` is redacted only where a verification or OAuth code travels, not on errors (err.code).
export const REDACT_PATHS = [
  'code',
  'body.code',
  'data.code',
  'query.code',
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  ...SECRET_KEYS.map((key) => `*.*.${key}`),
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
];

export function createLogger(level = 'info', destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      // Called only for lines the level lets through; a `requestId` given in the line itself wins.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { requestId };
      },
    },
    destination as pino.DestinationStream | undefined,
  );
}
