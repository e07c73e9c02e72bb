/**
 * Every route of spec section 2. Home and the platform pages are in the entry chunk (the shop
 * window); the static pages (support, FAQ, how it works, about us, policies) share one lazy
 * chunk, and login, checkout, the buyer's panel and the admin area load on demand.
 */
import { lazy } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { RequireAccess } from '../features/auth/components/RequireAccess';
import HomePage from '../features/catalog/pages/HomePage';
import PlatformPage from '../features/catalog/pages/PlatformPage';
import { POLICY_PAGES, type PolicyPage as Policy } from '../features/content/policies';
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

// The static pages and their texts in both languages: one chunk, never in the first download.
const loadContentPages = () => import('../features/content');
const SupportPage = lazyNamed(loadContentPages, 'SupportPage');
const FaqPage = lazyNamed(loadContentPages, 'FaqPage');
const HowItWorksPage = lazyNamed(loadContentPages, 'HowItWorksPage');
const PolicyPage = lazyNamed<Awaited<ReturnType<typeof loadContentPages>>, 'PolicyPage', { policy: Policy }>(loadContentPages, 'PolicyPage');

const UserPanelPage = lazy(() => import('../features/panel/pages/UserPanelPage'));
const AdminArea = lazy(() => import('../features/admin/AdminArea'));

/** `handle` of a route whose chunk main.tsx loads before the first render (pre-rendered pages). */
export interface RouteHandle {
  preload?: () => Promise<void>;
}

const preloaded = (preload: () => Promise<void>): RouteHandle => ({ preload });

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
      { path: 'support', element: <SupportPage />, handle: preloaded(SupportPage.preload) },
      { path: 'faq', element: <FaqPage />, handle: preloaded(FaqPage.preload) },
      { path: 'howitworks', element: <HowItWorksPage />, handle: preloaded(HowItWorksPage.preload) },
      ...POLICY_PAGES.map((policy) => ({ path: policy.path, element: <PolicyPage policy={policy} />, handle: preloaded(PolicyPage.preload) })),
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

/** Loads the chunks the page at `pathname` needs before its first render; never fails. */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(matches.map((match) => (match.route.handle as RouteHandle | undefined)?.preload?.().catch(() => undefined)));
}
