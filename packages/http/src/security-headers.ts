/**
 * The security headers of every answer (helmet: CSP, COOP, Referrer-Policy, nosniff, …). Our
 * helmet options are constants, so helmet sets the same headers on every request: they are
 * taken from it once, at start, and set from that list per request, which costs a fraction of
 * running helmet's dozen middleware each time (bench:api). A directive computed per request (a
 * nonce) would need helmet per request again: `fixedHeaders` refuses headers that differ
 * between two recordings.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { AppConfig } from '@subshare/core';
import type { BareMiddleware } from './middleware/bare.js';

export function securityHeaders(config: AppConfig): BareMiddleware {
  // Google's sign-in button is a script and an iframe from accounts.google.com, only when configured.
  const google = config.google.clientId ? ['https://accounts.google.com/gsi/'] : [];
  return fixedHeaders(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...google],
          // Chakra UI (emotion) injects its styles at run time.
          styleSrc: ["'self'", "'unsafe-inline'", ...google],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'", ...google],
          frameSrc: ["'self'", ...google],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: config.publicUrl.startsWith('https:') ? [] : null,
        },
      },
      strictTransportSecurity: config.publicUrl.startsWith('https:'),
      // Google's sign-in popup must be able to talk back to the page that opened it,
      // and its button checks the page's origin.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
  );
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** What a middleware that only sets and removes headers does, recorded once and replayed. */
export function fixedHeaders(middleware: Middleware): BareMiddleware {
  const record = () => {
    const set: Array<[string, string]> = [];
    const removed: string[] = [];
    const recorder = {
      setHeader: (name: string, value: string | number | readonly string[]) => set.push([name, String(value)]),
      removeHeader: (name: string) => removed.push(name),
    };
    middleware({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
      if (error) throw error;
    });
    return { set, removed };
  };
  const { set, removed } = record();
  if (JSON.stringify(record()) !== JSON.stringify({ set, removed }))
    throw new Error('These headers change from one request to the next; they cannot be fixed.');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}
