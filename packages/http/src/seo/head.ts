/**
 * The head tags that search engines and link previews read: title, description, canonical URL,
 * hreflang alternates, robots, Open Graph and (for platform pages) schema.org data. What they say
 * comes from the page React rendered (the web bundle's head model); the URLs and escaping are here.
 */
import { escapeHtml } from '@subshare/core';
import { jsonForScript } from './escape.js';
import type { HeadModel, Lang } from './renderer.js';

export type { HeadModel } from './renderer.js';

const OG_LOCALES: Record<Lang, string> = { en: 'en_US', ko: 'ko_KR' };

/** The page's URL in a language: Korean carries `?lang=ko`, English is the plain URL (and x-default). */
export function languageUrls(publicUrl: string, path: string): { en: string; ko: string } {
  const base = `${publicUrl}${path === '/' ? '/' : path}`;
  return { en: base, ko: `${base}?lang=ko` };
}

export function renderHead(model: HeadModel, publicUrl: string): string {
  const other: Lang = model.lang === 'en' ? 'ko' : 'en';
  const meta = (attribute: 'name' | 'property', key: string, value: string) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  const tags = [`<title>${escapeHtml(model.title)}</title>`, meta('name', 'description', model.description)];
  if (model.noindex) tags.push(meta('name', 'robots', 'noindex'));
  const urls = model.path === undefined ? undefined : languageUrls(publicUrl, model.path);
  const url = urls?.[model.lang];
  if (urls && url) {
    tags.push(
      `<link rel="canonical" href="${escapeHtml(url)}">`,
      `<link rel="alternate" hreflang="en" href="${escapeHtml(urls.en)}">`,
      `<link rel="alternate" hreflang="ko" href="${escapeHtml(urls.ko)}">`,
      `<link rel="alternate" hreflang="x-default" href="${escapeHtml(urls.en)}">`,
    );
  }
  tags.push(
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'subshare'),
    meta('property', 'og:title', model.title),
    meta('property', 'og:description', model.description),
    ...(url ? [meta('property', 'og:url', url)] : []),
    meta('property', 'og:image', absolute(publicUrl, model.image)),
    meta('property', 'og:image:alt', model.imageAlt),
    meta('property', 'og:locale', OG_LOCALES[model.lang]),
    meta('property', 'og:locale:alternate', OG_LOCALES[other]),
    meta('name', 'twitter:card', 'summary'),
  );
  if (model.jsonLd) tags.push(`<script type="application/ld+json">${jsonForScript(model.jsonLd)}</script>`);
  return tags.join('');
}

/** An image or page address of this shop as an absolute URL. */
export function absolute(publicUrl: string, url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${publicUrl}${url.startsWith('/') ? '' : '/'}${url}`;
}
