/**
 * The security headers of every answer: helmet, run per request (CSP, COOP, Referrer-Policy,
 * nosniff, …). A plain (req, res, next) function on Node's request and response: Express mounts
 * it, and the front door (front-door.ts) calls it.
 */
import helmet from 'helmet';
import type { AppConfig } from '@subshare/core';

export function securityHeaders(config: AppConfig): ReturnType<typeof helmet> {
  // Google's sign-in button is a script and an iframe from accounts.google.com, only when configured.
  const google = config.google.clientId ? ['https://accounts.google.com/gsi/'] : [];
  return helmet({
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
  });
}
