/**
 * The security headers of every answer: helmet, run per request (CSP, COOP, Referrer-Policy,
 * nosniff, …). A plain (req, res, next) function on Node's request and response: Express mounts
 * it, and the front door (front-door.ts) calls it.
 *
 * The built scripts and styles under /assets/ get only the headers that act on a subresource
 * (nosniff, Cross-Origin-Resource-Policy, and HSTS over HTTPS). The others (CSP, COOP,
 * X-Frame-Options, Referrer-Policy, …) govern documents, and a browser ignores them on a script;
 * they cost about 700 bytes on each of the storefront's six first-load scripts (bench:lighthouse).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { AppConfig } from '@subshare/core';

type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

const ASSET_PATH = /^\/assets\//;

export function securityHeaders(config: AppConfig): Handler {
  const https = config.publicUrl.startsWith('https:');
  // Google's sign-in button is a script and an iframe from accounts.google.com, only when configured.
  const google = config.google.clientId ? ['https://accounts.google.com/gsi/'] : [];
  const documents = helmet({
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
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https,
    // Google's sign-in popup must be able to talk back to the page that opened it,
    // and its button checks the page's origin.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  const assets = helmet({
    contentSecurityPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: https,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  return (req, res, next) => (ASSET_PATH.test(req.url ?? '') ? assets(req, res, next) : documents(req, res, next));
}
