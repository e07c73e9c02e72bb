/**
 * Every shop page an e-mail links to, as a path on PUBLIC_URL, in this one place (the templates
 * and the layout's footer read it), built by the pages' declarations (`@subshare/core/pages`).
 */
import { pagePath } from '../../../pages/index.js';

export const EMAIL_PAGES = {
  /** The storefront's home page. */
  home: pagePath.home,
  /** The buyer's panel: their subscriptions, login details and cards. */
  panel: (userId: number) => pagePath.user(userId),
  /** A platform's page, where buying again extends the same slot. */
  platform: (platformId: number) => pagePath.platform(platformId),
  /** Staff: the dashboard (failed renewals among it). */
  dashboard: pagePath.admin,
  /** Staff: the accounts by health. */
  accountHealth: pagePath.adminHealth,
} as const;

/** Not ours: Trustpilot's review page for the shop's domain. */
export function trustpilotReviewUrl(publicHost: string): string {
  return `https://www.trustpilot.com/evaluate/${publicHost}`;
}

/** An absolute link: PUBLIC_URL (trailing slashes dropped) and the path. */
export function absolute(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${path}`;
}
