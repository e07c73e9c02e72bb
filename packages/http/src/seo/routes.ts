/**
 * Which storefront page a URL path is, as the web app's router sees it (packages/web
 * app/routes.tsx). Anything the app does not know is `unknown`: the app shows its not-found
 * page, and the server answers it with status 404.
 */
import { CONTENT_PAGES, type ContentPage, type PrivatePage } from './texts.js';

export type StorefrontRoute =
  | { kind: 'home' }
  /** `id` is null for a malformed id ("/platform/abc"). */
  | { kind: 'platform'; id: number | null }
  | { kind: 'content'; page: ContentPage }
  | { kind: 'private'; page: PrivatePage }
  | { kind: 'unknown' };

const PRIVATE_PREFIXES: Array<[RegExp, PrivatePage]> = [
  [/^\/login$/, 'login'],
  [/^\/register$/, 'register'],
  [/^\/payment$/, 'payment'],
  [/^\/paymentresult\/[^/]+\/[^/]+$/, 'paymentresult'],
  [/^\/payssionpaymentresult$/, 'payssionpaymentresult'],
  [/^\/naver\/callback$/, 'navercallback'],
  [/^\/user\/[^/]+$/, 'user'],
  [/^\/jve(\/.*)?$/, 'admin'],
];

/** "/Support/" → "/support": the app's router ignores case and a trailing slash. */
export function normalizePath(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return (trimmed || '/').toLowerCase();
}

export function matchRoute(rawPath: string): StorefrontRoute {
  const path = normalizePath(rawPath);
  if (path === '/') return { kind: 'home' };
  const platform = /^\/platform\/([^/]+)$/.exec(path);
  if (platform) {
    const id = /^[1-9]\d{0,9}$/.test(platform[1]!) ? Number(platform[1]) : null;
    return { kind: 'platform', id: id !== null && id <= 2_147_483_647 ? id : null };
  }
  const name = path.slice(1);
  if ((CONTENT_PAGES as readonly string[]).includes(name)) return { kind: 'content', page: name as ContentPage };
  for (const [pattern, page] of PRIVATE_PREFIXES) if (pattern.test(path)) return { kind: 'private', page };
  return { kind: 'unknown' };
}
