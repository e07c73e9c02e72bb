/**
 * The web app's server bundle (packages/web/dist-server/entry-server.js, built by `npm run build`
 * with the web app): React renders the storefront pages from the components the browser
 * hydrates. Only the shape this package calls is written here; the bundle is loaded on the first
 * storefront request, never imported at compile time.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export type Lang = 'en' | 'ko';

export type PageKind =
  | { kind: 'home'; key: string }
  | { kind: 'platform'; id: number; key: string }
  | { kind: 'content'; page: string; key: string }
  | { kind: 'notFound'; platform: boolean; key: string }
  | { kind: 'private'; page: string; key: string };

export interface RenderRequest {
  url: string;
  publicUrl: string;
  languageId: 1 | 2;
  currency: 'EUR' | 'KRW';
  currencyChosen: boolean;
  /** GET /api/main/home's answer in that language and currency. */
  home: { platforms: unknown[]; currencyCode: 'EUR' | 'KRW' };
  business: unknown;
}

/** What the head says about the page, as the page rendered itself. */
export interface HeadModel {
  lang: Lang;
  title: string;
  description: string;
  /** The canonical path ("/", "/platform/1", "/support"); absent for pages that are not indexed. */
  path?: string;
  noindex: boolean;
  /** The preview image (absolute, or a path of this shop). */
  image: string;
  imageAlt: string;
  jsonLd?: unknown;
}

export interface RenderedMarkup {
  status: 200 | 404;
  head: HeadModel;
  /** The Redux state the page was rendered from, for the browser to start from; null for private pages. */
  state: unknown;
  /** The inside of `<div id="root">`; empty for private pages. */
  html: string;
  /** The page's Chakra (emotion) styles, a <style> for the head; empty when the page has none. */
  styles: string;
}

export interface ServerBundle {
  CONTENT_PAGES: readonly string[];
  classify(pathname: string, platformIds: ReadonlySet<number>): PageKind;
  render(request: RenderRequest): Promise<RenderedMarkup>;
  /** Where the browser reads the state from. */
  STATE_ELEMENT_ID: string;
  CURRENCY_META_NAME: string;
}

/**
 * Loads the bundle on first use, once it is there. Once only: its lazy chunks import the entry by
 * its plain URL, so a second copy (a query string to pick up a rebuild) would split React's
 * contexts in two. A rebuilt web app needs a restart of the server, as its assets do.
 */
export function bundleLoader(file: string): () => Promise<ServerBundle | undefined> {
  let loaded: Promise<ServerBundle> | undefined;
  return async () => {
    if (!loaded && !existsSync(file)) return undefined;
    loaded ??= import(pathToFileURL(file).href) as Promise<ServerBundle>;
    return loaded;
  };
}
