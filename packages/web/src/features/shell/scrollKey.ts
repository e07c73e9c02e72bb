/**
 * The key under which React Router's <ScrollRestoration> keeps a page's scroll position.
 *
 * Entries the router made (links, navigate) carry their own key. The entry a document was loaded
 * into has none: the router calls it "default", so every page opened by a full load (a link from
 * another site, a payment provider sending the buyer back, a typed address) would share one
 * position, and the payment result page would open at the place the platform page was left. Such
 * an entry gets a key of its own in `history.state`, which the browser keeps for a reload and for
 * back and forward (where the position is brought back) and never gives to a new load (which
 * starts at the top).
 */
import type { Location } from 'react-router-dom';

const STATE_FIELD = 'subshareScrollKey';

function documentEntryKey(): string {
  const state: unknown = window.history.state;
  const current = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
  const existing = current[STATE_FIELD];
  if (typeof existing === 'string') return existing;
  const key = `document-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  // The router's own fields (usr, key, idx) stay as they are.
  window.history.replaceState({ ...current, [STATE_FIELD]: key }, '');
  return key;
}

export function scrollKey(location: Location): string {
  return location.key === 'default' ? documentEntryKey() : location.key;
}
