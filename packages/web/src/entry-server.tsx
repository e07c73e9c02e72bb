/**
 * The server's side of the one rendering: the storefront pages (home, platform pages, the
 * static and policy pages, not-found) rendered by React from the components the browser
 * hydrates, with the Redux state they were rendered from, and the head tags built from what
 * the page reported (usePageMeta). Built by `vite build --ssr` into dist-server/ (every library
 * bundled: the server needs no web dependency installed) and loaded by packages/http at start.
 *
 * The caller (packages/http, seo/storefront.ts) decides language and currency, fetches the
 * catalog and caches the result; nothing here reads a request or a database.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { configureStore } from '@reduxjs/toolkit';
import { PAGE_LIST, PAGES, pagePath, routeWithin, type PageDeclaration, type PageName } from '@subshare/core/pages';
import { CHOICE_FIELDS, PROMO_CODE_PARAM, readChoice, readOptionChoice, readPromoCode, RETURN_URL_PARAM, safeReturnUrl } from '@subshare/core/storefront';
import { StrictMode, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter, matchRoutes, useRoutes } from 'react-router-dom';
import { AppFrame, AppRoutes } from './app/App';
import { rootReducer, type RootState } from './app/rootReducer';
import { preloadChakra } from './app/chakra/ChakraBoundary';
import { preloadRoute, routes } from './app/routes';
import { Notice } from './components/ui/Notice';
import { PageMetaContext, documentTitle, metaDescription, type PageMetaCollector } from './components/ui/usePageMeta';
import { businessLoaded } from './features/business/slice';
import { parsePlatformId } from './features/catalog/platformId';
import { formatAmount, minMonthlyPrice, roundToCurrency } from './features/catalog/rules';
import {
  currencyChosen,
  currencyDecided,
  homeLoaded,
  platformNotFound,
  platformPageOpened,
  platformPreloaded,
  selectionChanged,
} from './features/catalog/slice';
import { CHECKOUT_TEXTS } from './features/checkout/texts';
import { AppLayout } from './features/shell/components/AppLayout';
import { DICTIONARY } from './features/language/dictionary';
import { getLanguage, type LanguageId } from './features/language/languages';
import { languageResolved } from './features/language/slice';
import { translate } from './features/language/texts';
import type { ssr } from '@subshare/core/wire';
import type { CurrencyCode, Platform } from './services/api';

import { CURRENCY_META_NAME } from './ssr/currencyMeta';
import { STATE_ELEMENT_ID } from './ssr/stateElement';

export { CURRENCY_META_NAME, STATE_ELEMENT_ID };

type Lang = ssr.Lang;
export type HeadModel = ssr.HeadModel;

/** A page's route below the root layout (app/routes.tsx): its declared path without the '/'. */
const route = (page: PageDeclaration) => routeWithin(PAGES.home, page);

/** The static pages the server renders and sitemap.xml lists (declared `sitemap: 'page'`), besides home. */
const CONTENT_PAGES: readonly string[] = PAGE_LIST.filter((page) => page.sitemap === 'page' && page !== PAGES.home).map(route);

/** The declared page a leaf route stands for ('jve/*' is the admin area), by name. */
function pageNameOf(routePath: string): PageName | undefined {
  return (Object.keys(PAGES) as PageName[]).find((name) => [route(PAGES[name]), `${route(PAGES[name])}/*`].includes(routePath));
}

const HERO_IMAGE = '/media/hero.svg';

export type PageKind = ssr.PageKind;

export function classify(pathname: string, platformIds: ReadonlySet<number>): PageKind {
  const leaf = matchRoutes(routes, pathname)?.at(-1)?.route;
  const path = leaf?.index ? '' : (leaf?.path ?? '*');
  if (path === '') return { kind: 'home', key: 'home' };
  if (path === route(PAGES.platform)) {
    const id = parsePlatformId(/^\/platform\/([^/]*)/i.exec(pathname)?.[1]);
    return id !== null && platformIds.has(id)
      ? { kind: 'platform', id, key: `platform/${id}` }
      : { kind: 'notFound', platform: true, key: 'platform-not-found' };
  }
  if (CONTENT_PAGES.includes(path)) return { kind: 'content', page: path, key: path };
  if (path === '*') return { kind: 'notFound', platform: false, key: 'not-found' };
  const page = pageNameOf(path) ?? path;
  return { kind: 'private', page, key: `private/${page}` };
}

export type RenderRequest = ssr.RenderRequest;
export type RenderedPage = ssr.RenderedPage<Partial<RootState>>;

export async function render(request: RenderRequest): Promise<RenderedPage> {
  const pathname = new URL(request.url, 'http://localhost').pathname;
  const platformIds = new Set(request.home.platforms.map((platform) => platform.id));
  const page = classify(pathname, platformIds);
  const lang = getLanguage(request.languageId).culture as Lang;
  const t = (key: Parameters<typeof translate<keyof (typeof DICTIONARY)[1]>>[2]) => translate(DICTIONARY, request.languageId, key);
  const publicUrl = request.publicUrl.replace(/\/+$/, '');
  const hero = { image: `${publicUrl}${HERO_IMAGE}`, imageAlt: t('home.slogan') };

  if (page.kind === 'private') {
    // The browser renders the page; without script, the frame says why and leads back (<noscript>).
    const notice: ssr.Notice = {
      testId: 'no-script',
      title: t('noScript.title'),
      message: t('noScript.text'),
      links: [backFromPrivatePage(request)],
    };
    const { html, styles } = await renderFrame(frameStore(request), request.url, {}, <noscript>{<Notice notice={notice} />}</noscript>);
    const head: HeadModel = {
      lang,
      title: documentTitle({ title: privateTitle(page.page, request.languageId) }),
      description: t('home.subslogan'),
      noindex: true,
      ...hero,
    };
    return { status: 200, head, state: null, html, styles };
  }

  const store = frameStore(request);
  let platform: Platform | undefined;
  if (page.kind === 'home') store.dispatch(homeLoaded(request.home));
  if (page.kind === 'platform') {
    platform = request.home.platforms.find((candidate) => candidate.id === page.id)!;
    store.dispatch(platformPreloaded({ platform, currencyCode: request.home.currencyCode }));
    // The platform form submitted without script (`?type=…&duration=…`): that choice's prices.
    const chosen = readOptionChoice(new URL(request.url, 'http://localhost').searchParams);
    const enabled = (options: readonly { id: number; isEnable: boolean }[], id: number | null) =>
      id !== null && options.some((option) => option.id === id && option.isEnable) ? id : undefined;
    const typeId = enabled(platform.type, chosen.typeId);
    const durationId = enabled(platform.duration, chosen.durationId);
    if (typeId !== undefined || durationId !== undefined) {
      store.dispatch(selectionChanged({ ...(typeId === undefined ? {} : { typeId }), ...(durationId === undefined ? {} : { durationId }) }));
    }
  }
  if (page.kind === 'notFound' && page.platform) {
    const id = parsePlatformId(/^\/platform\/([^/]*)/i.exec(pathname)?.[1]);
    store.dispatch(platformPageOpened(id));
    if (id !== null) store.dispatch(platformNotFound());
  }
  const collector: PageMetaCollector = {};
  const { html, styles } = await renderApp(store, request.url, collector);
  const meta = collector.meta ?? { title: null };
  const title = documentTitle(meta);
  const description = metaDescription(meta.description ?? t('home.subslogan'));

  let head: HeadModel;
  if (page.kind === 'notFound') {
    head = { lang, title, description, noindex: true, ...hero };
  } else {
    const path = page.kind === 'home' ? pagePath.home() : page.kind === 'platform' ? pagePath.platform(page.id) : `/${page.page}`;
    head = { lang, title, description, path, noindex: false, ...hero };
    if (platform) {
      const image = absolute(publicUrl, platform.logoBase);
      const currency = request.home.currencyCode;
      const monthly = minMonthlyPrice(platform, currency);
      Object.assign(head, {
        image,
        imageAlt: platform.name,
        jsonLd: {
          '@context': 'https://schema.org',
          '@type': 'Product',
          name: platform.name,
          description: metaDescription(platform.description),
          image,
          url: `${publicUrl}${path}${lang === 'ko' ? '?lang=ko' : ''}`,
          ...(monthly === null ? {} : { offers: { '@type': 'Offer', price: plainAmount(monthly, currency), priceCurrency: currency } }),
        },
      });
    }
  }
  return { status: page.kind === 'notFound' ? 404 : 200, head, state: serverState(store.getState()), html, styles };
}

/** A notice the server wrote (a renewal link's page) in the shop's frame; not hydrated (no state). */
export async function renderNotice(request: ssr.NoticeRequest): Promise<RenderedPage> {
  const lang = getLanguage(request.languageId).culture as Lang;
  const collector: PageMetaCollector = {};
  const { html, styles } = await renderFrame(frameStore(request), request.url, collector, <Notice notice={request.notice} />);
  const publicUrl = request.publicUrl.replace(/\/+$/, '');
  const head: HeadModel = {
    lang,
    title: documentTitle(collector.meta ?? { title: request.notice.title }),
    description: metaDescription(request.notice.message),
    noindex: true,
    image: `${publicUrl}${HERO_IMAGE}`,
    imageAlt: translate(DICTIONARY, request.languageId, 'home.slogan'),
  };
  return { status: 200, head, state: null, html, styles };
}

/** The store every server-rendered page starts from: language, currency and the business details of the footer. */
function frameStore(request: RenderRequest) {
  const store = configureStore({ reducer: rootReducer, middleware: (getDefault) => getDefault({ thunk: false }) });
  store.dispatch(languageResolved(request.languageId));
  store.dispatch(request.currencyChosen ? currencyChosen(request.currency) : currencyDecided(request.currency));
  if (request.business) store.dispatch(businessLoaded(request.business));
  return store;
}

/**
 * Where a page that needs script leads back to without it: the platform page with the buyer's
 * choice (from /payment's query, or from /login's return URL to /payment), else home.
 */
function backFromPrivatePage(request: RenderRequest): { href: string; label: string } {
  const url = new URL(request.url, 'http://localhost');
  const returnUrl = url.searchParams.get(RETURN_URL_PARAM);
  const target = returnUrl ? new URL(safeReturnUrl(returnUrl), 'http://localhost') : url;
  const choice = target.pathname === PAGES.payment.path ? readChoice(target.searchParams) : null;
  const platform = choice && request.home.platforms.find((candidate) => candidate.id === choice.platformId);
  if (!choice || !platform) return { href: pagePath.home(), label: translate(DICTIONARY, request.languageId, 'common.backHome') };
  const query = new URLSearchParams({ [CHOICE_FIELDS.type]: String(choice.typeId), [CHOICE_FIELDS.duration]: String(choice.durationId) });
  // The promotion code the buyer came with stays with the choice.
  const promoCode = readPromoCode(target.searchParams);
  if (promoCode) query.set(PROMO_CODE_PARAM, promoCode);
  return { href: `${pagePath.platform(platform.id)}?${query}`, label: translate(DICTIONARY, request.languageId, 'noScript.backTo', { name: platform.name }) };
}

/** The layout (header, footer) around `content`, whatever the address: the frame of the server's notices. */
function FramedContent({ content }: { content: ReactNode }) {
  return useRoutes([{ element: <AppLayout />, children: [{ path: '*', element: content }] }]);
}

/** The state the browser starts from. The session is the browser's own: it joins after hydration. */
function serverState(state: RootState): Partial<RootState> {
  const { page } = state.catalog;
  // A platform that does not exist is the page's answer too: its opening in the browser asks nothing again.
  const catalog = page.status === 'notFound' && page.id !== null ? { ...state.catalog, page: { ...page, reuse: true } } : state.catalog;
  return { shell: state.shell, language: state.language, catalog, business: state.business };
}

/**
 * renderToString, after the page's lazy chunks (a static page and Chakra) have been loaded: then
 * nothing suspends, the whole page is in one piece of markup, and React adds no inline scripts
 * (which the Content-Security-Policy would block) to stream in late parts. Chakra's styles are
 * collected by emotion's server API (a cache of the default key, `css`) and returned for the
 * head: a <style> inside the body is not valid HTML. The browser's emotion finds them there by
 * their `data-emotion="css …"` and does not insert them again.
 */
async function renderApp(
  store: ReturnType<typeof configureStore<RootState>>,
  url: string,
  collector: PageMetaCollector,
): Promise<{ html: string; styles: string }> {
  await Promise.all([preloadRoute(new URL(url, 'http://localhost').pathname), preloadChakra()]);
  return renderFrame(store, url, collector);
}

/** renderToString of the app at `url`: its routed page, or `content` in the frame (see renderApp). */
async function renderFrame(
  store: ReturnType<typeof configureStore<RootState>>,
  url: string,
  collector: PageMetaCollector,
  content?: ReactNode,
): Promise<{ html: string; styles: string }> {
  const location = new URL(url, 'http://localhost');
  const cache = createCache({ key: 'css' });
  const { extractCritical } = createEmotionServer(cache);
  const html = renderToString(
    <StrictMode>
      <CacheProvider value={cache}>
        <AppFrame store={store}>
          <PageMetaContext.Provider value={collector}>
            <StaticRouter location={location.pathname + location.search}>
              {content === undefined ? <AppRoutes /> : <FramedContent content={content} />}
            </StaticRouter>
          </PageMetaContext.Provider>
        </AppFrame>
      </CacheProvider>
    </StrictMode>,
  );
  const { css, ids } = extractCritical(html);
  return { html, styles: css ? `<style data-emotion="css ${ids.join(' ')}">${css}</style>` : '' };
}

/** The title of a page the browser renders, by its declared name (classify). */
function privateTitle(page: string, languageId: LanguageId): string | null {
  switch (page as PageName) {
    case 'login':
    case 'naverCallback':
      return translate(DICTIONARY, languageId, 'login.title');
    case 'register':
      return translate(DICTIONARY, languageId, 'register.title');
    case 'payment':
      return translate(CHECKOUT_TEXTS, languageId, 'payment.title');
    case 'paymentResult':
    case 'payssionResult':
      return translate(CHECKOUT_TEXTS, languageId, 'result.title');
    case 'user':
      return translate(DICTIONARY, languageId, 'nav.mySubscriptions');
    default:
      return null;
  }
}

function absolute(publicUrl: string, url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${publicUrl}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** schema.org wants a plain decimal: "4.99", "6900". */
function plainAmount(amount: number, currency: CurrencyCode): string {
  return formatAmount(roundToCurrency(amount, currency), currency).replace(/,/g, '');
}

// The bundle's exports, held to the contract packages/http loads it by (wire/ssr.ts).
({ classify, render, renderNotice, STATE_ELEMENT_ID, CURRENCY_META_NAME }) satisfies ssr.ServerBundle;
