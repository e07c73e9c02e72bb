/**
 * /jve/catalog (admins; moderators see neither the menu entry nor the pages, and the server
 * refuses them): the list of platforms and the editor of one (`new` or its id). Its slice and
 * saga join the store with the admin chunk.
 */
import { PAGES, routeWithin } from '@subshare/core/pages';
import { Route, Routes } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { injectSaga } from '../../../app/sagaInjector';
import { selectUser } from '../../auth/selectors';
import { ROLES } from '../../auth/session';
import { useT } from '../../language/useT';
import { AdminSection } from '../components/AdminSection';
import CatalogListPage from './pages/CatalogListPage';
import PlatformEditorPage from './pages/PlatformEditorPage';
import { catalogEditorSaga } from './saga';
import { CATALOG_TEXTS } from './texts';

injectSaga('catalogEditor', catalogEditorSaga);

export function CatalogRoutes() {
  const t = useT(CATALOG_TEXTS);
  const isAdmin = (useAppSelector(selectUser)?.role ?? ROLES.user) >= ROLES.admin;
  if (!isAdmin) return <AdminSection testId="admin-catalog-admins-only" title={t('catalog.adminsOnly')} />;
  return (
    <Routes>
      <Route index element={<CatalogListPage />} />
      <Route path={routeWithin(PAGES.adminCatalog, PAGES.adminNewPlatform)} element={<PlatformEditorPage />} />
      <Route path={routeWithin(PAGES.adminCatalog, PAGES.adminPlatform)} element={<PlatformEditorPage />} />
    </Routes>
  );
}
