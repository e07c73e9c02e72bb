/**
 * One pino logger for every process. Anything that could hold a password, token, code or
 * key is redacted by path, so a careless `log.info({ body })` cannot leak a secret.
 */
import { pino, type Logger } from 'pino';

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
    },
    destination as pino.DestinationStream | undefined,
  );
}
