/**
 * The whole /jve area, loaded lazily as one chunk so the storefront's first download carries
 * no admin code. Its routes are relative to /jve. Loading the chunk adds the admin slice to
 * the store (slice.ts) and starts the admin saga.
 */
import { Route, Routes } from 'react-router-dom';
import { injectSaga } from '../../app/sagaInjector';
import { AdminLayout } from './components/AdminLayout';
import { AdminSection } from './components/AdminSection';
import AuditPage from './audit/AuditPage';
import HealthPage from './health/HealthPage';
import OutboxPage from './outbox/OutboxPage';
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

function AdminNotFound() {
  const t = useT(ADMIN_TEXTS);
  return <AdminSection testId="admin-not-found" title={t('admin.notFound')} />;
}

export default function AdminArea() {
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<DashboardPage />} />
        <Route path="orders/:sid" element={<OrdersPage />} />
        <Route path="createsubscriber" element={<CreateSubscriptionPage />} />
        <Route path="users" element={<UsersPage />} />
        <Route path="user/:id" element={<UserPage />} />
        <Route path="staff" element={<StaffPage />} />
        <Route path="audit" element={<AuditPage />} />
        <Route path="health" element={<HealthPage />} />
        <Route path="outbox" element={<OutboxPage />} />
        <Route path="catalog/*" element={<CatalogRoutes />} />
        <Route path="*" element={<AdminNotFound />} />
      </Route>
    </Routes>
  );
}
