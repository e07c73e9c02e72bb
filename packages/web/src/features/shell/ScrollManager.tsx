/**
 * Where a page opens (issue 14): a link or a redirect in the app opens the next page at the top;
 * back and forward bring the position of that history entry back; a page the document was loaded
 * with is left alone, so a new load (a typed address, a link from another site, a payment
 * provider sending the buyer back) starts at the top as the browser opens it, and a phone visitor
 * who scrolled the server's page before it was hydrated stays where they are. A reload or a
 * return to the document from another site brings the entry's position back, as the browser
 * would have (it does not any more: the app keeps positions itself, `scrollRestoration` manual).
 *
 * Positions are kept per history entry. Entries the router made carry their own key; the entry a
 * document was loaded into has none (the router calls it "default"), so it gets a key of its own
 * in `history.state`, which the browser keeps for a reload and for back and forward and never
 * gives to a new load.
 */
import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType, type Location } from 'react-router-dom';

const STATE_FIELD = 'subshareScrollKey';
const STORAGE_KEY = 'subshare.scrollPositions';
/** Positions kept in the tab's session storage (the most recent ones). */
const KEPT_POSITIONS = 50;

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

function entryKey(location: Location): string {
  return location.key === 'default' ? documentEntryKey() : location.key;
}

let positions: Map<string, number> | null = null;

/** The positions of this tab's entries: from session storage the first time (a reload, a return from another site). */
function keptPositions(): Map<string, number> {
  if (positions) return positions;
  positions = new Map();
  try {
    const stored: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    if (Array.isArray(stored)) {
      for (const entry of stored) {
        if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number') positions.set(entry[0], entry[1]);
      }
    }
  } catch {
    // Storage blocked or unreadable: positions are kept for this document only.
  }
  return positions;
}

function remember(key: string, y: number): void {
  const kept = keptPositions();
  kept.delete(key);
  kept.set(key, y);
  if (kept.size > KEPT_POSITIONS) kept.delete(kept.keys().next().value!);
}

function persist(): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...keptPositions()]));
  } catch {
    // Storage full or blocked: a reload opens at the top.
  }
}

function restore(key: string): void {
  const y = keptPositions().get(key);
  if (y !== undefined) window.scrollTo(0, y);
}

/** Whether the document was loaded by a reload or by back/forward from another site. */
function documentReturned(): boolean {
  const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.type === 'reload' || entry?.type === 'back_forward';
}

export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const documentPage = useRef(true);

  useLayoutEffect(() => {
    const key = entryKey(location);
    if (documentPage.current) {
      documentPage.current = false;
      window.history.scrollRestoration = 'manual';
      if (documentReturned() && window.scrollY === 0) restore(key);
    } else if (navigationType === 'POP') {
      restore(key);
    } else if (!location.hash) {
      window.scrollTo(0, 0);
    }
    // Kept while the page is shown (once a frame at most): when the next page renders, this one's
    // height, and so the position, may already have changed.
    let frame = 0;
    const onScroll = () => {
      if (frame !== 0) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        remember(key, window.scrollY);
      });
    };
    const onPageHide = () => {
      remember(key, window.scrollY);
      persist();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onPageHide);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onPageHide);
    };
    // One run per history entry: `location` changes identity only with it.
  }, [location, navigationType]);

  return null;
}
