/**
 * Start-up. A storefront page (home, platform, static and policy pages, not-found) arrives
 * rendered by the server from these same components (entry-server.tsx), styled (the stylesheet
 * is in the head), with the state it was rendered from in #ssr-state. This entry is small and
 * imports nothing heavy: once that page has painted, it loads the store (app/startStore.ts, in
 * its own task) and then React (app/startReact.tsx), which hydrates the markup. The first paint
 * needs no script, and a script requested before it would count towards the largest contentful
 * paint (Lighthouse's simulation). A choice made on the markup before hydration is kept
 * (app/earlyChoices.ts).
 *
 * Login, checkout, the panel and the admin area depend on the visitor: the server sends an
 * empty #root and they render here at once (createRoot).
 */
import { recordEarlyChoices, type EarlyChoices } from './app/earlyChoices';
import { keepReferralCode } from './features/referral/keptCode';
import type { RootState } from './app/rootReducer';
import { STATE_ELEMENT_ID } from './ssr/stateElement';

/** Resolves in a new task: the browser may paint and handle input first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * Resolves once the browser has painted the server's page: after its first contentful paint has
 * been reported (a paint entry is queued only once that frame is on screen) and one more frame.
 * Without paint entries, after the next frame; in a tab in the background (no frames come), at
 * once; at most after 1 s.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') return resolve();
    let done = false;
    let observer: PerformanceObserver | undefined;
    const timer = window.setTimeout(finish, 1000);
    function finish() {
      if (done) return;
      done = true;
      observer?.disconnect();
      window.clearTimeout(timer);
      requestAnimationFrame(() => void nextTask().then(resolve));
    }
    if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      observer = new PerformanceObserver((list) => {
        if (list.getEntries().length > 0) finish();
      });
      observer.observe({ type: 'paint', buffered: true });
    } else {
      requestAnimationFrame(finish);
    }
  });
}

function readServerState(): Partial<RootState> | null {
  const text = document.getElementById(STATE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as Partial<RootState>;
  } catch (error) {
    console.error('[subshare] the server state is not JSON; rendering afresh', error);
    return null;
  }
}

async function start(container: HTMLElement, earlyChoices: EarlyChoices): Promise<void> {
  const serverState = container.firstElementChild ? readServerState() : null;
  if (serverState) await afterFirstPaint();
  // Fetched at once. A server-rendered page is on screen and must stay responsive: the store,
  // React DOM and the app are each evaluated in a task of their own (a module graph is evaluated
  // in one go), React DOM, the longest, alone. A page the browser renders (login, checkout, panel,
  // admin) shows nothing until the app runs: the app is fetched with the others, and the page's
  // chunks and first data are asked as soon as the store exists (app/startPrivatePage.ts).
  const storeStep = import('./app/startStore');
  const libraries = import('react-dom/client');
  const appStep = serverState ? null : import('./app/startReact');
  const privatePage = serverState ? null : import('./app/startPrivatePage');
  const { startStore } = await storeStep;
  const store = startStore(serverState);
  // What the server rendered, as the store holds it before the visitor or the app changes it.
  const renderedState = store.getState();
  void privatePage?.then(({ startPrivatePage }) => startPrivatePage(store.getState(), window.location)).catch(() => undefined);
  await nextTask();
  await libraries;
  await nextTask();
  const { hydrate, render } = await (appStep ?? import('./app/startReact'));
  if (serverState) hydrate(container, store, renderedState, earlyChoices);
  else render(container, store);
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// A friend's invitation link (`/?ref=CODE`): kept for the sign-up.
keepReferralCode(window.location.search);
void start(container, recordEarlyChoices());
