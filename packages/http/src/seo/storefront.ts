/**
 * The first HTML of every storefront URL: the built index.html with the page's own head tags,
 * `<html lang>` and pre-rendered content, in the visitor's language and currency.
 *
 * Language: `?lang=ko|en`, else the visitor's country or Accept-Language (as the API decides).
 * Currency: `?currency=EUR|KRW`, else Korean visitors KRW and everyone else EUR.
 *
 * Rendered pages are kept in memory per (page, language, currency), in a WeakMap keyed by the
 * catalog's platform list: when the catalog reloads (a change anywhere, see CatalogService),
 * the list is a new array and the old pages go with the old one. Only known pages are kept
 * (home, existing platforms, static and app pages by kind), so the memory is bounded whatever
 * URLs visitors make up.
 */
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { AppConfig, CatalogService, CurrencyCode, LanguageId, PlatformView } from '@subshare/core';
import { chooseCurrency, defaultLanguage, visitorCountry } from '../middleware/visitor.js';
import { truncate } from './escape.js';
import { languageUrls, renderHead, type HeadModel } from './head.js';
import { homeMarkup, notFoundMarkup, platformMarkup, titleMarkup, type PageContext } from './markup.js';
import { formatMoney, minimumMonthly } from './prices.js';
import { matchRoute, type StorefrontRoute } from './routes.js';
import { robotsTxt, sitemapXml } from './sitemap.js';
import { compileTemplate, type ShellTemplate } from './template.js';
import { TEXTS, type Lang } from './texts.js';

export interface RenderedPage {
  status: 200 | 404;
  body: Buffer;
  etag: string;
}

const LANGUAGE_IDS: Record<Lang, LanguageId> = { en: 1, ko: 2 };
const HERO_IMAGE = '/media/hero.svg';

export function requestedLanguage(req: Request, config: AppConfig): Lang {
  const raw = typeof req.query.lang === 'string' ? req.query.lang.toLowerCase() : undefined;
  if (raw === 'ko' || raw === 'en') return raw;
  return defaultLanguage(visitorCountry(req, config)) === 2 ? 'ko' : 'en';
}

export function requestedCurrency(req: Request, config: AppConfig): CurrencyCode {
  const raw = typeof req.query.currency === 'string' ? req.query.currency.toUpperCase() : undefined;
  return chooseCurrency(req, config, raw);
}

export class Storefront {
  private readonly publicUrl: string;
  private readonly pages = new WeakMap<PlatformView[], Map<string, RenderedPage>>();
  private readonly sitemaps = new WeakMap<PlatformView[], string>();
  private template: { html: string; compiled: ShellTemplate } | undefined;

  constructor(
    private readonly catalog: CatalogService,
    private readonly config: AppConfig,
  ) {
    this.publicUrl = config.publicUrl.replace(/\/+$/, '');
  }

  /** The page for this request, from memory when the catalog has not changed since it was rendered. */
  async render(templateHtml: string, req: Request): Promise<RenderedPage> {
    const lang = requestedLanguage(req, this.config);
    const currency = requestedCurrency(req, this.config);
    const route = matchRoute(req.path);
    const platforms = await this.catalog.listPlatforms(LANGUAGE_IDS[lang]);

    if (this.template?.html !== templateHtml) this.template = { html: templateHtml, compiled: compileTemplate(templateHtml) };
    const template = this.template.compiled;

    let cache = this.pages.get(platforms);
    if (!cache) {
      cache = new Map();
      this.pages.set(platforms, cache);
    }
    const key = `${cacheKey(route, platforms)}|${lang}|${currency}`;
    let page = cache.get(key);
    if (!page) {
      const { status, head, root } = this.build(route, platforms, { lang, currency, path: canonicalPath(route) });
      const body = Buffer.from(template.render({ lang: TEXTS[lang].locale, head: renderHead(head), root }), 'utf8');
      page = { status, body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
      cache.set(key, page);
    }
    return page;
  }

  /** sitemap.xml, rebuilt when the catalog changes. */
  async sitemap(): Promise<string> {
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

  private build(route: StorefrontRoute, platforms: PlatformView[], context: PageContext): { status: 200 | 404; head: HeadModel; root: string } {
    const t = TEXTS[context.lang];
    const hero = { image: `${this.publicUrl}${HERO_IMAGE}`, imageAlt: t.home.slogan };
    const indexed = (path: string) => ({ urls: languageUrls(this.publicUrl, path), noindex: false });
    const notFound = (title: string, text: string) => ({
      status: 404 as const,
      head: { lang: context.lang, title, description: text, noindex: true, ...hero },
      // The language switch of a not-found page leads home: one cached page serves every missing URL.
      root: notFoundMarkup({ ...context, path: '/' }, title.replace(/ \| subshare$/, ''), text),
    });

    switch (route.kind) {
      case 'home': {
        const head: HeadModel = { lang: context.lang, title: t.home.title, description: t.home.description, ...indexed('/'), ...hero };
        return { status: 200, head, root: homeMarkup(context, platforms) };
      }
      case 'platform': {
        const platform = route.id === null ? undefined : platforms.find((candidate) => candidate.id === route.id);
        if (!platform) return notFound(t.platform.notFoundTitle, t.platform.notFoundText);
        const price = minimumMonthly(platform, context.currency);
        const priceText = price ? `${formatMoney(price.monthly, context.lang)}${t.card.perMonth}` : null;
        const path = `/platform/${platform.id}`;
        const urls = languageUrls(this.publicUrl, path);
        const image = absolute(this.publicUrl, platform.logoBase);
        const head: HeadModel = {
          lang: context.lang,
          title: t.platform.title(platform.name),
          description: truncate(`${t.platform.description(platform.name, priceText)} ${platform.description}`, 160),
          ...indexed(path),
          image,
          imageAlt: platform.name,
          jsonLd: {
            '@context': 'https://schema.org',
            '@type': 'Product',
            name: platform.name,
            description: truncate(platform.description, 300),
            image,
            url: urls[context.lang],
            ...(price
              ? { offers: { '@type': 'Offer', price: formatAmountPlain(price.monthly.amount, price.monthly.currency), priceCurrency: price.monthly.currency } }
              : {}),
          },
        };
        return { status: 200, head, root: platformMarkup(context, platform) };
      }
      case 'content': {
        const page = t.content[route.page];
        const head: HeadModel = { lang: context.lang, title: `${page.title} | subshare`, description: page.description, ...indexed(`/${route.page}`), ...hero };
        return { status: 200, head, root: titleMarkup(context, page.title, page.description) };
      }
      case 'private': {
        const title = t.private[route.page];
        // No pre-rendered content: these pages depend on the visitor, and the app shows its own loader.
        return { status: 200, head: { lang: context.lang, title: `${title} | subshare`, description: t.home.description, noindex: true, ...hero }, root: '' };
      }
      case 'unknown':
        return notFound(t.notFound.title, t.notFound.text);
    }
  }
}

/** Bounded: made-up URLs share one entry per kind. */
function cacheKey(route: StorefrontRoute, platforms: readonly PlatformView[]): string {
  switch (route.kind) {
    case 'home':
      return 'home';
    case 'platform':
      return route.id !== null && platforms.some((platform) => platform.id === route.id) ? `platform/${route.id}` : 'platform-not-found';
    case 'content':
      return route.page;
    case 'private':
      return `private/${route.page}`;
    case 'unknown':
      return 'not-found';
  }
}

function canonicalPath(route: StorefrontRoute): string {
  switch (route.kind) {
    case 'platform':
      return route.id === null ? '/' : `/platform/${route.id}`;
    case 'content':
      return `/${route.page}`;
    default:
      return '/';
  }
}

function absolute(publicUrl: string, url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${publicUrl}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** schema.org wants a plain decimal: "4.99", "6900". */
function formatAmountPlain(minor: number, currency: CurrencyCode): string {
  return currency === 'KRW' ? String(minor) : (minor / 100).toFixed(2);
}
