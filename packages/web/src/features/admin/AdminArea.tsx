/**
 * The whole /jve area, loaded lazily as one chunk so the storefront's first download carries
 * no admin code. Its routes are relative to /jve, each from its page's declaration (`@subshare/core/pages`). Loading the chunk adds the admin slice to
 * the store (slice.ts) and starts the admin saga.
 */
import { PAGES, routeWithin, type PageDeclaration } from '@subshare/core/pages';
import { Route, Routes } from 'react-router-dom';
import { injectSaga } from '../../app/sagaInjector';
import { AdminLayout } from './components/AdminLayout';
import { AdminSection } from './components/AdminSection';
import AuditPage from './audit/AuditPage';
import HealthPage from './health/HealthPage';
import OutboxPage from './outbox/OutboxPage';
import PromosPage from './promos/PromosPage';
import StaffPage from './staff/StaffPage';
import { CatalogRoutes } from './catalog/CatalogRoutes';
import CreateSubscriptionPage from './pages/CreateSubscriptionPage';
import DashboardPage from './pages/DashboardPage';
import OrdersPage from './pages/OrdersPage';
import UserPage from './pages/UserPage';
import UsersPage from './pages/UsersPage';
import { adminSaga } from './saga';
import { ADMIN_TEXTS } from './texts';
import { useT } from '../language/useT';

injectSaga('admin', adminSaga);

/** A page's route below /jve, from its declaration. */
const within = (page: PageDeclaration) => routeWithin(PAGES.admin, page);

function AdminNotFound() {
  const t = useT(ADMIN_TEXTS);
  return <AdminSection testId="admin-not-found" title={t('admin.notFound')} />;
}

export default function AdminArea() {
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<DashboardPage />} />
        <Route path={within(PAGES.adminOrders)} element={<OrdersPage />} />
        <Route path={within(PAGES.adminCreateSubscription)} element={<CreateSubscriptionPage />} />
        <Route path={within(PAGES.adminUsers)} element={<UsersPage />} />
        <Route path={within(PAGES.adminUser)} element={<UserPage />} />
        <Route path={within(PAGES.adminStaff)} element={<StaffPage />} />
        <Route path={within(PAGES.adminAudit)} element={<AuditPage />} />
        <Route path={within(PAGES.adminHealth)} element={<HealthPage />} />
        <Route path={within(PAGES.adminOutbox)} element={<OutboxPage />} />
        <Route path={`${within(PAGES.adminCatalog)}/*`} element={<CatalogRoutes />} />
        <Route path={within(PAGES.adminPromos)} element={<PromosPage />} />
        <Route path="*" element={<AdminNotFound />} />
      </Route>
    </Routes>
  );
}
