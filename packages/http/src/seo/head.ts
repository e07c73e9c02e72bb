/**
 * The head tags that search engines and link previews read: title, description, canonical URL,
 * hreflang alternates, robots, Open Graph and (for platform pages) schema.org data.
 */
import { escapeHtml } from '@subshare/core';
import { jsonForScript } from './escape.js';
import { CRITICAL_CSS } from './markup.js';
import { TEXTS, type Lang } from './texts.js';

export interface HeadModel {
  lang: Lang;
  title: string;
  description: string;
  /** Absolute URLs of the page in each language; absent for pages that are not indexed. */
  urls?: { en: string; ko: string };
  noindex: boolean;
  /** Absolute URL of the preview image. */
  image: string;
  imageAlt: string;
  jsonLd?: unknown;
}

/** The page's URL in a language: Korean carries `?lang=ko`, English is the plain URL (and x-default). */
export function languageUrls(publicUrl: string, path: string): { en: string; ko: string } {
  const base = `${publicUrl}${path === '/' ? '/' : path}`;
  return { en: base, ko: `${base}?lang=ko` };
}

export function renderHead(model: HeadModel): string {
  const t = TEXTS[model.lang];
  const other: Lang = model.lang === 'en' ? 'ko' : 'en';
  const meta = (attribute: 'name' | 'property', key: string, value: string) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  const tags = [`<title>${escapeHtml(model.title)}</title>`, meta('name', 'description', model.description)];
  if (model.noindex) tags.push(meta('name', 'robots', 'noindex'));
  const url = model.urls?.[model.lang];
  if (model.urls && url) {
    tags.push(
      `<link rel="canonical" href="${escapeHtml(url)}">`,
      `<link rel="alternate" hreflang="en" href="${escapeHtml(model.urls.en)}">`,
      `<link rel="alternate" hreflang="ko" href="${escapeHtml(model.urls.ko)}">`,
      `<link rel="alternate" hreflang="x-default" href="${escapeHtml(model.urls.en)}">`,
    );
  }
  tags.push(
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'subshare'),
    meta('property', 'og:title', model.title),
    meta('property', 'og:description', model.description),
    ...(url ? [meta('property', 'og:url', url)] : []),
    meta('property', 'og:image', model.image),
    meta('property', 'og:image:alt', model.imageAlt),
    meta('property', 'og:locale', t.ogLocale),
    meta('property', 'og:locale:alternate', TEXTS[other].ogLocale),
    meta('name', 'twitter:card', 'summary'),
  );
  if (model.jsonLd) tags.push(`<script type="application/ld+json">${jsonForScript(model.jsonLd)}</script>`);
  tags.push(`<style>${CRITICAL_CSS}</style>`);
  return tags.join('');
}
