import { useSyncExternalStore } from 'react';

// Chakra's `md` breakpoint (48rem): phones get the compact navigation below it.
const DESKTOP_QUERY = '(min-width: 48rem)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(DESKTOP_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Renders one layout or the other instead of hiding one with CSS, so each control (and its
 * data-testid) exists once on the page.
 */
export function useIsDesktop(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(DESKTOP_QUERY).matches,
    () => true,
  );
}
