/**
 * The server-rendering contract: what packages/http (seo/renderer.ts, seo/storefront.ts) asks of
 * the web app's server bundle (web/src/entry-server.tsx) and what it answers. The bundle is
 * loaded at run time, never imported at compile time, so both sides take these types from here:
 * `ServerBundle` is checked against the bundle's exports in web/src/entry-server.tsx.
 */
import type { BusinessAnswer, HomeAnswer } from './catalog.js';

export type Lang = 'en' | 'ko';

/** What a path is to the storefront; `key` names its rendering in a cache (bounded: made-up URLs share one). */
export type PageKind =
  | { kind: 'home'; key: string }
  | { kind: 'platform'; id: number; key: string }
  | { kind: 'content'; page: string; key: string }
  | { kind: 'notFound'; platform: boolean; key: string }
  /**
   * Login, checkout, panel, admin: depend on the visitor, so the browser renders them (noindex).
   * The server sends the shop's frame with a `<noscript>` notice: without script, the visitor
   * reads that the page needs it and finds the way back to the platform page.
   */
  /** `page`: the name of its declaration in `@subshare/core/pages` ('user', 'admin'). */
  | { kind: 'private'; page: string; key: string };

export interface RenderRequest {
  /** Path and query of the page. */
  url: string;
  /** The shop's public address, for canonical and hreflang URLs. */
  publicUrl: string;
  languageId: 1 | 2;
  /** The currency prices are shown in. */
  currency: HomeAnswer['currencyCode'];
  /** Whether the visitor chose it (`?currency`, the display cookie), as opposed to the server's default. */
  currencyChosen: boolean;
  /** The catalog in that language and currency: GET /api/main/home's answer. */
  home: HomeAnswer;
  business: BusinessAnswer | null;
}

/** What the head says about the page; packages/http writes the tags (URLs from PUBLIC_URL, escaping). */
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

/** A rendered page; `S` is the web's Redux state (the server only passes it through as JSON). */
export interface RenderedPage<S = unknown> {
  status: 200 | 404;
  head: HeadModel;
  /** The state the page was rendered from (the browser starts the store from it); null for private pages. */
  state: S | null;
  /** The inside of `<div id="root">`; empty for private pages. */
  html: string;
  /** The page's Chakra (emotion) styles, a <style> for the head; empty when the page has none. */
  styles: string;
}

/**
 * A page whose words the server wrote (the pages the renewal e-mails' links open: core's
 * renewal-link-texts.ts), shown in the shop's frame: header, footer, the visitor's currency.
 * Plain HTML: it works without script, and the page carries none.
 */
export interface Notice {
  /** The prefix of the page's `data-testid`s: `{testId}-title`, `-message`, `-facts`, `-note`, `-confirm`, `-links`. */
  testId: string;
  title: string;
  message: string;
  /** Label and value rows (platform, period, amount, date). */
  facts?: Array<[label: string, value: string]>;
  /** Said just above the button. */
  note?: string;
  /** A button that POSTs `fields` (hidden inputs) to `action`, a path of this site. */
  form?: { action: string; fields: Array<[name: string, value: string]>; label: string };
  /** Links onwards: paths of this site. */
  links?: Array<{ href: string; label: string }>;
}

export interface NoticeRequest extends RenderRequest {
  notice: Notice;
}

/** What the server bundle exports. */
export interface ServerBundle {
  classify(pathname: string, platformIds: ReadonlySet<number>): PageKind;
  render(request: RenderRequest): Promise<RenderedPage>;
  /** A notice in the shop's frame (no state: the page is not hydrated). */
  renderNotice(request: NoticeRequest): Promise<RenderedPage>;
  /** Where the browser reads the state from. */
  STATE_ELEMENT_ID: string;
  CURRENCY_META_NAME: string;
}
