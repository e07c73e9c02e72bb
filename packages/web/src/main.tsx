/**
 * Start-up. This entry holds the store and its sagas only (no React), so the data a
 * pre-rendered page needs is asked for as early as possible; the interface (app/ui.tsx: React,
 * the router, the storefront's pages in plain CSS and their stylesheet; no Chakra, which only
 * the pages built with it load) is fetched once the pre-rendered page has painted, and starts
 * in tasks of its own.
 *
 * The server may have pre-rendered the page into #root (and sent its data in #ssr-data), in the
 * language and currency of `?lang` / `?currency` when the address names them. The app's first
 * render replaces that markup (createRoot, not hydrateRoot).
 */
import { prefetchRouteData } from './app/prefetch';
import { readServerData } from './app/serverData';
import { createAppStore } from './app/store';
import { readUrlChoices } from './app/urlChoices';

/** Resolves in a new task: the browser may paint and handle input first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * Resolves once the browser has painted the pre-rendered page and is idle: after its first
 * contentful paint has been reported (a PerformanceObserver entry is queued only once that frame
 * is on screen), one more frame, and an idle moment. Without paint entries (older browsers), after
 * the next frame; in a tab in the background (no frames come), at once; at most after 1.5 s.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') return resolve();
    let done = false;
    let observer: PerformanceObserver | undefined;
    const timer = window.setTimeout(() => finish(false), 1500);
    function finish(painted: boolean) {
      if (done) return;
      done = true;
      observer?.disconnect();
      window.clearTimeout(timer);
      if (!painted) return resolve();
      // One more frame (the candidates of the largest paint are recorded), then an idle moment.
      requestAnimationFrame(() => {
        if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => resolve(), { timeout: 300 });
        else void nextTask().then(resolve);
      });
    }
    if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      observer = new PerformanceObserver((list) => {
        if (list.getEntries().length > 0) finish(true);
      });
      observer.observe({ type: 'paint', buffered: true });
    } else {
      requestAnimationFrame(() => void nextTask().then(() => finish(true)));
    }
  });
}

async function start(container: HTMLElement): Promise<void> {
  const prerendered = container.childElementCount > 0;
  // The visitor sees the pre-rendered page first; the app's work comes after that paint.
  if (prerendered) await afterFirstPaint();
  const store = createAppStore({ urlChoices: readUrlChoices(window.location.search), serverData: readServerData(container) });
  const ready = prerendered ? prefetchRouteData(store, window.location.pathname) : Promise.resolve();
  // Evaluating the interface's chunk is a long step of its own: not in the same task as the store's.
  if (prerendered) await nextTask();
  const { startUi } = await import('./app/ui');
  await startUi(container, store, ready);
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
void start(container);
