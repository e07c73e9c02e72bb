/**
 * sitemap.xml (home, platform pages, static pages, each in English and Korean with hreflang
 * alternates; lastmod from platforms.updated_at) and robots.txt, both from PUBLIC_URL. The static
 * pages and the URL scheme are the web app's (its server bundle).
 */
import { escapeHtml as escape, type PlatformView } from '@subshare/core';
import { languageUrls } from './head.js';
import type { ServerBundle } from './renderer.js';

/** Paths that are nobody's search result: the admin area, the API, buyer panels and checkout. */
export const ROBOTS_DISALLOW = ['/jve', '/api/', '/user/', '/payment', '/payssionpaymentresult', '/naver/'];

export function robotsTxt(publicUrl: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  return ['User-agent: *', 'Allow: /', ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`), '', `Sitemap: ${base}/sitemap.xml`, ''].join('\n');
}

export function sitemapXml(web: ServerBundle, publicUrl: string, platforms: readonly PlatformView[]): string {
  const base = publicUrl.replace(/\/+$/, '');
  const newest = platforms.reduce<Date | undefined>((latest, platform) => (!latest || platform.updatedAt > latest ? platform.updatedAt : latest), undefined);
  const pages: Array<{ path: string; lastmod?: Date }> = [
    { path: '/', lastmod: newest },
    ...platforms.map((platform) => ({ path: `/platform/${platform.id}`, lastmod: platform.updatedAt })),
    ...web.CONTENT_PAGES.map((page) => ({ path: `/${page}` })),
  ];
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
