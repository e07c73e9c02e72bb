import { createContext, useContext, useEffect } from 'react';

export const SITE_NAME = 'subshare';
/** Search engines show about this many characters of a description. */
const DESCRIPTION_MAX = 160;

export interface PageMeta {
  /** The page's own title ("Support"); the site name is added: "Support | subshare". Null: the site name only. */
  title: string | null;
  /** The whole document title instead, as it is (home: "subshare — …"). */
  fullTitle?: string;
  /** The meta description; trimmed to a sentence-friendly length. */
  description?: string;
  /**
   * 'noindex' keeps the page out of search results (not-found pages); 'index' removes a robots
   * tag a previous page left behind (the server writes one into the first HTML of not-found and
   * private pages); undefined leaves the tag as it is.
   */
  robots?: 'index' | 'noindex';
}

function shorten(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= DESCRIPTION_MAX) return clean;
  const cut = clean.slice(0, DESCRIPTION_MAX - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), DESCRIPTION_MAX / 2))}…`;
}

/**
 * On the server (entry-server.tsx) the page being rendered reports its meta here instead: effects
 * do not run there, and the head of the first HTML is written from what the page reported.
 */
export interface PageMetaCollector {
  meta?: PageMeta;
}
export const PageMetaContext = createContext<PageMetaCollector | null>(null);

/** The document title of a page's meta, as the browser tab and the server's <title> show it. */
export function documentTitle({ title, fullTitle }: PageMeta): string {
  return fullTitle ?? (title ? `${title} | ${SITE_NAME}` : SITE_NAME);
}

/** The meta description as written into the head. */
export function metaDescription(description: string): string {
  return shorten(description);
}

/**
 * Keeps document.title and the description in step with the page as the visitor moves
 * around (the server writes the same into the first HTML of storefront pages).
 */
export function usePageMeta({ title, fullTitle, description, robots }: PageMeta): void {
  const collector = useContext(PageMetaContext);
  // The innermost page renders last: its meta wins, as its effects would in the browser.
  if (collector) collector.meta = { title, fullTitle, description, robots };

  useEffect(() => {
    document.title = documentTitle({ title, fullTitle });
  }, [title, fullTitle]);

  useEffect(() => {
    if (!description) return;
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = shorten(description);
  }, [description]);

  useEffect(() => {
    if (robots === undefined) return;
    const tags = [...document.head.querySelectorAll<HTMLMetaElement>('meta[name="robots"]')];
    if (robots === 'index') {
      for (const tag of tags) tag.remove();
      return;
    }
    const meta = tags[0] ?? document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    if (!meta.isConnected) document.head.appendChild(meta);
    return () => meta.remove();
  }, [robots]);
}
