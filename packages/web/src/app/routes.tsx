/**
 * Every route of spec section 2. The storefront (home, platform, static pages) is in the
 * entry chunk; login, checkout, the buyer's panel and the admin area load on demand.
 */
import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';
import { RequireAccess } from '../features/auth/components/RequireAccess';
import HomePage from '../features/catalog/pages/HomePage';
import PlatformPage from '../features/catalog/pages/PlatformPage';
import HowItWorksPage from '../features/content/pages/HowItWorksPage';
import PolicyPage from '../features/content/pages/PolicyPage';
import SupportPage from '../features/content/pages/SupportPage';
import { POLICY_PAGES } from '../features/content/policies';
import { AppLayout } from '../features/shell/components/AppLayout';
import NotFoundPage from '../features/shell/pages/NotFoundPage';
import { lazyNamed } from './lazy';

// One chunk for the login screens; importing it also starts the login saga (features/login/index.ts).
const loadLoginPages = () => import('../features/login');
const LoginPage = lazyNamed(loadLoginPages, 'LoginPage');
const RegisterPage = lazyNamed(loadLoginPages, 'RegisterPage');
const NaverCallbackPage = lazyNamed(loadLoginPages, 'NaverCallbackPage');

const loadCheckoutPages = () => import('../features/checkout/pages');
const PaymentPage = lazyNamed(loadCheckoutPages, 'PaymentPage');
const PaymentResultPage = lazyNamed(loadCheckoutPages, 'PaymentResultPage');
const PayssionResultPage = lazyNamed(loadCheckoutPages, 'PayssionResultPage');

const UserPanelPage = lazy(() => import('../features/panel/pages/UserPanelPage'));
const AdminArea = lazy(() => import('../features/admin/AdminArea'));

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'platform/:id', element: <PlatformPage /> },
      {
        path: 'payment',
        element: (
          <RequireAccess requirement="verifiedEmail">
            <PaymentPage />
          </RequireAccess>
        ),
      },
      { path: 'paymentresult/:id/:success', element: <PaymentResultPage /> },
      { path: 'payssionpaymentresult', element: <PayssionResultPage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'register', element: <RegisterPage /> },
      { path: 'naver/callback', element: <NaverCallbackPage /> },
      {
        path: 'user/:id',
        element: (
          <RequireAccess requirement="login">
            <UserPanelPage />
          </RequireAccess>
        ),
      },
      { path: 'support', element: <SupportPage /> },
      { path: 'howitworks', element: <HowItWorksPage /> },
      ...POLICY_PAGES.map((policy) => ({ path: policy.path, element: <PolicyPage policy={policy} /> })),
      {
        path: 'jve/*',
        element: (
          <RequireAccess requirement="staff">
            <AdminArea />
          </RequireAccess>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
