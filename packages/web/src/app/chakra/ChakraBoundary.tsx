/**
 * Where Chakra starts. The storefront's first screen (shell, home, platform page, not-found)
 * is plain React and CSS; the pages and dialogs built with Chakra (login, checkout, the
 * buyer's panel, admin, the static pages, the language dialog) are wrapped in this boundary,
 * which loads Chakra and its provider (ChakraRoot.tsx) on first use. While that chunk loads the
 * nearest Suspense fallback shows (the route loader of AppLayout).
 *
 * Chakra's global CSS (its preflight and the global styles of components/ui/system.ts) applies to
 * the whole document once a boundary has rendered; the plain-CSS shell already has the same
 * reset and values (components/plain/base.css), so nothing on it moves or changes colour.
 */
import type { ReactNode } from 'react';
import { lazyNamed } from '../lazy';

const loadChakra = () => import('./ChakraRoot');

const ChakraRoot = lazyNamed<Awaited<ReturnType<typeof loadChakra>>, 'ChakraRoot', { children?: ReactNode }>(loadChakra, 'ChakraRoot');

/** Loads Chakra ahead of its first render (a pre-rendered static page, a hovered button); never fails. */
export function preloadChakra(): Promise<void> {
  return ChakraRoot.preload().catch(() => undefined);
}

export function ChakraBoundary({ children }: { children?: ReactNode }) {
  return <ChakraRoot>{children}</ChakraRoot>;
}
