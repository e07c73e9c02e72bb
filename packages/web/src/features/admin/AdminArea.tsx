/**
 * The whole /jve area, loaded lazily as one chunk so the storefront's first download carries
 * no admin code. Its routes are relative to /jve.
 */
import { Route, Routes } from 'react-router-dom';
import NotFoundPage from '../shell/pages/NotFoundPage';
import { AdminLayout } from './components/AdminLayout';
import { AdminCreateSubscriptionPage, AdminHomePage, AdminOrdersPage, AdminUserPage, AdminUsersPage } from './pages/AdminPages';

export default function AdminArea() {
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<AdminHomePage />} />
        <Route path="orders/:sid" element={<AdminOrdersPage />} />
        <Route path="createsubscriber" element={<AdminCreateSubscriptionPage />} />
        <Route path="users" element={<AdminUsersPage />} />
        <Route path="user/:id" element={<AdminUserPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
