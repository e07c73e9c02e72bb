/**
 * Start-up. This entry holds the store and its sagas only (no React, no Chakra), so the data a
 * pre-rendered page needs is asked for as early as possible; the interface (app/ui.tsx) is
 * fetched in parallel (index.html preloads it) and starts in tasks of its own.
 *
 * The server may have pre-rendered the page into #root (and sent its data in #ssr-data), in the
 * language and currency of `?lang` / `?currency` when the address names them. The app's first
 * render replaces that markup (createRoot, not hydrateRoot).
 */
import { prefetchRouteData } from './app/prefetch';
import { readServerData } from './app/serverData';
import { createAppStore } from './app/store';
import { readUrlChoices } from './app/urlChoices';

/**
 * Resolves once the browser has painted what it has (the pre-rendered page): after the next
 * animation frame, or after 100 ms when frames do not come (a tab opened in the background).
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        window.clearTimeout(timer);
        resolve();
      };
      channel.port2.postMessage(null);
    });
  });
}

async function start(container: HTMLElement): Promise<void> {
  const prerendered = container.childElementCount > 0;
  // The visitor sees the pre-rendered page first; the app's work comes after that paint.
  if (prerendered) await afterFirstPaint();
  const store = createAppStore({ urlChoices: readUrlChoices(window.location.search), serverData: readServerData(container) });
  const ready = prerendered ? prefetchRouteData(store, window.location.pathname) : Promise.resolve();
  const { startUi } = await import('./app/ui');
  await startUi(container, store, ready);
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
void start(container);
