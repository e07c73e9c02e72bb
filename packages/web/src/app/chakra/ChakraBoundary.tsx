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
import { useState, type ReactNode } from 'react';
import { useStore } from 'react-redux';
import { useLocation, type Location } from 'react-router-dom';
import { lazyNamed } from '../lazy';
import type { RootState } from '../rootReducer';

const loadChakra = () => import('./ChakraRoot');

const ChakraRoot = lazyNamed<Awaited<ReturnType<typeof loadChakra>>, 'ChakraRoot', { children?: ReactNode }>(loadChakra, 'ChakraRoot');

/** Loads Chakra ahead of its first render (a pre-rendered static page, a hovered button); never fails. */
export function preloadChakra(): Promise<void> {
  return ChakraRoot.preload().catch(() => undefined);
}

/**
 * `alongside`: what the page inside needs besides Chakra (its chunk, its first data), started
 * together with Chakra's chunk rather than after it has loaded and the page has mounted.
 * Started once per mount (a retry after suspending asks again; the API layer keeps the first).
 */
export type Alongside = (state: RootState, location: Location) => void;

export function ChakraBoundary({ children, alongside }: { children?: ReactNode; alongside?: Alongside }) {
  const store = useStore<RootState>();
  const location = useLocation();
  useState(() => alongside?.(store.getState(), location));
  return <ChakraRoot>{children}</ChakraRoot>;
}
