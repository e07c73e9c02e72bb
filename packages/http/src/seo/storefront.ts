/**
 * The first HTML of every storefront URL: the built index.html with the page React rendered on
 * the server (the web app's bundle, seo/renderer.ts) inside `<div id="root">`, its head tags,
 * `<html lang>` and the state it was rendered from, in the visitor's language and currency.
 *
 * Language: `?lang=ko|en`, else the display cookie `subshare_lang` (the visitor's stored
 * choice), else the visitor's country or Accept-Language (as the API decides).
 * Currency: `?currency=EUR|KRW`, else the display cookie `subshare_currency`, else Korean
 * visitors KRW and everyone else EUR.
 *
 * Rendered pages are kept in memory per (page, language, currency, chosen or not; a platform page
 * with a `?type`/`?duration` choice is rendered each time), in a WeakMap
 * keyed by the catalog's platform list: when the catalog reloads (a change anywhere, see
 * CatalogService), the list is a new array and the old pages go with the old one. Only known
 * pages are kept (home, existing platforms, static and app pages by kind), so the memory is
 * bounded whatever URLs visitors make up.
 */
import { createHash } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { Request } from 'express';
import type { AppConfig, CatalogService, CurrencyCode, LanguageId, PlatformView } from '@subshare/core';
import { CHOICE_FIELDS, DISPLAY_COOKIES, PROMO_CODE_PARAM } from '@subshare/core/storefront';
import type { ssr } from '@subshare/core/wire';
import { chooseCurrency, defaultLanguage, visitorCountry } from '../middleware/visitor.js';
import { serializePlatform } from '../serializers/platform.serializer.js';
import { jsonForScript } from './escape.js';
import { renderHead } from './head.js';
import type { ServerBundle } from './renderer.js';
import { robotsTxt, sitemapXml } from './sitemap.js';
import { compileTemplate, type ShellTemplate } from './template.js';

export interface RenderedPage {
  status: 200 | 404;
  body: Buffer;
  etag: string;
}

/** The display cookies (the web app's chooser and POST /display write them): the visitor's stored choices. */
const LANGUAGE_COOKIE = DISPLAY_COOKIES.language;
const CURRENCY_COOKIE = DISPLAY_COOKIES.currency;

/**
 * A display cookie's value, by the `cookie` package: a value that is not valid percent-encoding
 * (a cookie some other code wrote, `subshare_lang=%E0%A4%A`) comes back as it is, never throws,
 * and then matches no known choice, so the defaults apply.
 */
function cookie(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  return header ? parseCookie(header)[name]?.trim() : undefined;
}

export function requestedLanguage(req: Request, config: AppConfig): LanguageId {
  const raw = typeof req.query.lang === 'string' ? req.query.lang.toLowerCase() : undefined;
  if (raw === 'ko' || raw === 'en') return raw === 'ko' ? 2 : 1;
  const stored = cookie(req, LANGUAGE_COOKIE);
  if (stored === '1' || stored === '2') return Number(stored) as LanguageId;
  return defaultLanguage(visitorCountry(req, config));
}

/** The currency, and whether the visitor chose it (the app then sends it with every catalog call). */
export function requestedCurrency(req: Request, config: AppConfig): { currency: CurrencyCode; chosen: boolean } {
  const raw = typeof req.query.currency === 'string' ? req.query.currency.toUpperCase() : cookie(req, CURRENCY_COOKIE)?.toUpperCase();
  const currency = chooseCurrency(req, config, raw);
  return { currency, chosen: currency === raw };
}

export class Storefront {
  private readonly publicUrl: string;
  private readonly pages = new WeakMap<PlatformView[], Map<string, RenderedPage>>();
  private readonly sitemaps = new WeakMap<PlatformView[], string>();
  private template: { html: string; compiled: ShellTemplate } | undefined;
  private scriptless: { html: string; compiled: ShellTemplate } | undefined;

  constructor(
    private readonly catalog: CatalogService,
    private readonly config: AppConfig,
    private readonly bundle: () => Promise<ServerBundle | undefined>,
  ) {
    this.publicUrl = config.publicUrl.replace(/\/+$/, '');
  }

  /**
   * The page for this request, from memory when the catalog has not changed since it was
   * rendered. Without the server bundle (not built), the plain shell: the app renders itself.
   */
  async render(templateHtml: string, req: Request): Promise<RenderedPage> {
    const web = await this.bundle();
    if (!web) return { status: 200, body: Buffer.from(templateHtml), etag: etagOf(Buffer.from(templateHtml)) };
    const languageId = requestedLanguage(req, this.config);
    const { currency, chosen } = requestedCurrency(req, this.config);
    const platforms = await this.catalog.listPlatforms(languageId);

    if (this.template?.html !== templateHtml) this.template = { html: templateHtml, compiled: compileTemplate(templateHtml) };
    const template = this.template.compiled;

    let cache = this.pages.get(platforms);
    if (!cache) {
      cache = new Map();
      this.pages.set(platforms, cache);
    }
    const kind = web.classify(req.path, new Set(platforms.map((platform) => platform.id)));
    const key = `${kind.key}|${languageId}|${currency}|${chosen ? 'chosen' : 'default'}`;
    // A platform page asked with a choice (its form submitted without script) shows that choice's
    // prices, a platform page's link with a promotion code (`?code=`) passes it on in its form, and
    // a page that needs script links back to the choice in its query (/payment?…,
    // /login?returnUrl=…): rendered each time, never kept, so made-up queries cannot fill the memory.
    const withChoice =
      (kind.kind === 'platform' && (CHOICE_FIELDS.type in req.query || CHOICE_FIELDS.duration in req.query || PROMO_CODE_PARAM in req.query)) ||
      (kind.kind === 'private' && Object.keys(req.query).length > 0);
    let page = withChoice ? undefined : cache.get(key);
    if (!page) {
      const rendered = await web.render(this.renderRequest(req, languageId, { currency, chosen }, platforms));
      const state = rendered.state === null ? '' : `<script id="${web.STATE_ELEMENT_ID}" type="application/json">${jsonForScript(rendered.state)}</script>`;
      // Every page, private ones too, starts in the visitor's currency (web: catalog/slice.ts).
      const currencyMeta = `<meta name="${web.CURRENCY_META_NAME}" content="${currency}">`;
      const body = Buffer.from(
        template.render({
          lang: rendered.head.lang,
          head: renderHead(rendered.head, this.publicUrl) + rendered.styles + currencyMeta + state,
          root: rendered.html,
        }),
        'utf8',
      );
      page = { status: rendered.status, body, etag: etagOf(body) };
      if (!withChoice) cache.set(key, page);
    }
    return page;
  }

  /**
   * A notice the server wrote (a renewal link's page: core's renewal-link-texts.ts) in the shop's
   * frame, in `languageId` (the order's) and the visitor's currency. The page carries no script:
   * it is plain HTML (its button a form), and the app, started on an address it has no page for,
   * would replace it. Undefined without the server bundle (the caller's bare page stands in).
   */
  async renderNotice(templateHtml: string, req: Request, notice: ssr.Notice, languageId: LanguageId): Promise<Buffer | undefined> {
    const web = await this.bundle();
    if (!web) return undefined;
    const { currency, chosen } = requestedCurrency(req, this.config);
    const platforms = await this.catalog.listPlatforms(languageId);
    if (this.scriptless?.html !== templateHtml) this.scriptless = { html: templateHtml, compiled: compileTemplate(withoutScripts(templateHtml)) };
    const rendered = await web.renderNotice({ ...this.renderRequest(req, languageId, { currency, chosen }, platforms), notice });
    const body = this.scriptless.compiled.render({
      lang: rendered.head.lang,
      head: renderHead(rendered.head, this.publicUrl) + rendered.styles,
      root: rendered.html,
    });
    return Buffer.from(body, 'utf8');
  }

  /**
   * What a page and a notice are rendered from: the address, the language, the visitor's currency
   * (and whether they chose it), the catalog's platforms for the storefront's state, the shop's
   * details. Built only when a page is rendered, not for a cached one.
   */
  private renderRequest(
    req: Request,
    languageId: LanguageId,
    { currency, chosen }: { currency: CurrencyCode; chosen: boolean },
    platforms: PlatformView[],
  ): ssr.RenderRequest {
    return {
      url: req.originalUrl,
      publicUrl: this.publicUrl,
      languageId,
      currency,
      currencyChosen: chosen,
      home: { platforms: platforms.map(serializePlatform), currencyCode: currency },
      business: this.config.business,
    };
  }

  /** sitemap.xml, rebuilt when the catalog changes. */
  async sitemap(): Promise<string | undefined> {
    const web = await this.bundle();
    if (!web) return undefined;
    const platforms = await this.catalog.listPlatforms(1);
    let xml = this.sitemaps.get(platforms);
    if (xml === undefined) {
      xml = sitemapXml(this.publicUrl, platforms);
      this.sitemaps.set(platforms, xml);
    }
    return xml;
  }

  robots(): string {
    return robotsTxt(this.publicUrl);
  }
}

/** The shell without its scripts and their preloads (the stylesheet stays). */
function withoutScripts(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>[ \t]*\r?\n?/gi, '').replace(/<link\b[^>]*\brel=["']?modulepreload["']?[^>]*>[ \t]*\r?\n?/gi, '');
}

function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}
