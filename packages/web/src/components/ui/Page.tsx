import type { ReactNode } from 'react';
import styles from './Page.module.css';
// The server's notice pages (Notice.tsx: the renewal links' pages, the no-script notice) are
// rendered by the server only: their styles travel in the stylesheet every page loads.
import './notice.css';
import { usePageMeta } from './usePageMeta';

interface PageProps {
  /** `data-testid` of the page root, e.g. "page-support". */
  testId: string;
  /** The page's one h1, also its document title. */
  title: string;
  /** `data-testid` of the h1, when a test reads it. */
  titleTestId?: string;
  /** A lead paragraph under the title; also the meta description unless `description` is given. */
  intro?: string;
  /** The meta description. */
  description?: string;
  /** Keeps the page out of search results (not-found). */
  noindex?: boolean;
  /** A storefront page search engines should index (static pages): drops a robots tag a previous page left. */
  indexable?: boolean;
  children?: ReactNode;
}

/**
 * A titled page body with the storefront's reading width. Plain CSS (no Chakra): the not-found
 * page uses it on the first screen; the static, login and other Chakra pages put their content in it.
 */
export function Page({ testId, title, titleTestId, intro, description, noindex, indexable, children }: PageProps) {
  usePageMeta({ title, description: description ?? intro, robots: noindex ? 'noindex' : indexable ? 'index' : undefined });
  return (
    <div data-testid={testId} className={styles.page}>
      <h1 className={styles.title} data-testid={titleTestId}>
        {title}
      </h1>
      {intro && (
        <p data-testid="page-intro" className={styles.intro}>
          {intro}
        </p>
      )}
      {children}
    </div>
  );
}
