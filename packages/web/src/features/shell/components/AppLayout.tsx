import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import '../../../components/plain/base.css';
import { cx } from '../../../components/plain/controls';
import { useT } from '../../language/useT';
import styles from './AppLayout.module.css';
import { Footer } from './Footer';
import { FullScreenLoader, LoadingOverlay } from './LoadingOverlay';
import { NavBar } from './NavBar';
import { ScrollManager } from '../ScrollManager';
import { SnackbarHost } from './Snackbar';

export const MAIN_CONTENT_ID = 'main-content';

/** The first focusable element: keyboard and screen-reader users jump over the navigation to the page. */
function SkipLink() {
  const t = useT();
  return (
    <a href={`#${MAIN_CONTENT_ID}`} data-testid="skip-link" className={styles.skipLink}>
      {t('common.skipToContent')}
    </a>
  );
}

/**
 * Navigation bar, the routed page, footer, the loading overlay and the snackbar around every
 * route. Plain React and CSS (no Chakra): the storefront's first screen renders without it; the
 * pages that use Chakra bring it along (app/chakra/ChakraBoundary.tsx, app/routes.tsx).
 * `ss-app` scopes the plain-CSS reset (components/plain/base.css).
 */
export function AppLayout() {
  return (
    <div className={cx('ss-app', styles.root)}>
      <SkipLink />
      <NavBar />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className={styles.main}>
        {/* Lazily loaded areas (static pages, login, panel, admin) show the loader while their code arrives. */}
        <Suspense fallback={<FullScreenLoader testId="route-loading" />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <LoadingOverlay />
      <SnackbarHost />
      {/* Each page opens at the top; back and forward bring a position back. */}
      <ScrollManager />
    </div>
  );
}
