/**
 * The app's interface: React, the router and the storefront's pages in plain CSS (no Chakra:
 * the pages that use it load it themselves, app/chakra). main.tsx loads it after the store has
 * started (the data of a pre-rendered page is already on its way), and it starts in steps that
 * each leave the browser free in between, so a phone never freezes for long: evaluate this
 * chunk (its stylesheet arrives with it) → render (a transition, in slices) → commit.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './App';
import { preloadRoute } from './routes';
import type { AppStore } from './store';

/** Resolves in a new task: the browser may paint and handle input first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * Renders the app into `container`, replacing whatever the server pre-rendered there (createRoot,
 * not hydrateRoot). `ready` is the data the first screen needs; a static page's chunk (and
 * Chakra's, which it uses) is fetched too, so the pre-rendered page stays until the real one can
 * replace it in one step.
 */
export async function startUi(container: HTMLElement, store: AppStore, ready: Promise<unknown>): Promise<void> {
  const pageChunk = preloadRoute(window.location.pathname);
  await Promise.all([ready, pageChunk, nextTask()]);
  const router = createAppRouter();
  const root = createRoot(container);
  // A transition renders in slices that yield to the browser; the pre-rendered page stays visible until it commits.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App store={store} router={router} />
      </StrictMode>,
    );
  });
}
