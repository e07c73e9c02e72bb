/**
 * sitemap.xml (home, platform pages, static pages, each in English and Korean with hreflang
 * alternates; lastmod from platforms.updated_at) and robots.txt, both from PUBLIC_URL. Which pages
 * go where is each page's declaration (`@subshare/core/pages`: `sitemap` and `robots`).
 */
import { escapeHtml as escape, type PlatformView } from '@subshare/core';
import { PAGE_LIST, pagePath, robotsDisallowPrefixes } from '@subshare/core/pages';
import { languageUrls } from './head.js';

/**
 * Paths that are nobody's search result: the API (its calls are not pages), and the pages
 * declared `robots: 'disallow'` (the admin area, buyer panels, checkout, login callbacks).
 */
export const ROBOTS_DISALLOW = ['/api/', ...robotsDisallowPrefixes()];

export function robotsTxt(publicUrl: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  return ['User-agent: *', 'Allow: /', ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`), '', `Sitemap: ${base}/sitemap.xml`, ''].join('\n');
}

export function sitemapXml(publicUrl: string, platforms: readonly PlatformView[]): string {
  const base = publicUrl.replace(/\/+$/, '');
  const newest = platforms.reduce<Date | undefined>((latest, platform) => (!latest || platform.updatedAt > latest ? platform.updatedAt : latest), undefined);
  // Home changes with the catalog: it lists every platform.
  const pages: Array<{ path: string; lastmod?: Date }> = PAGE_LIST.flatMap((page) => {
    // A page declared 'each platform' is built from the platform's id (PAGES.platform).
    if (page.sitemap === 'each platform') return platforms.map((platform) => ({ path: page.to(platform.id as never), lastmod: platform.updatedAt }));
    if (page.sitemap === 'page') return [{ path: page.to(), lastmod: page.path === pagePath.home() ? newest : undefined }];
    return [];
  });
  const entries = pages.flatMap(({ path, lastmod }) => {
    const urls = languageUrls(base, path);
    const alternates =
      `<xhtml:link rel="alternate" hreflang="en" href="${escape(urls.en)}"/>` +
      `<xhtml:link rel="alternate" hreflang="ko" href="${escape(urls.ko)}"/>` +
      `<xhtml:link rel="alternate" hreflang="x-default" href="${escape(urls.en)}"/>`;
    const modified = lastmod && !Number.isNaN(lastmod.getTime()) ? `<lastmod>${lastmod.toISOString()}</lastmod>` : '';
    return [urls.en, urls.ko].map((loc) => `<url><loc>${escape(loc)}</loc>${modified}${alternates}</url>`);
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
    entries.join('\n') +
    '\n</urlset>\n'
  );
}
