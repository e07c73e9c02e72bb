/**
 * Every route of spec section 2, each path from its declaration in `@subshare/core/pages`. Home, the platform pages and the not-found page are in the
 * interface chunk (the shop window) and render without Chakra (plain React and CSS); the static
 * pages (support, FAQ, how it works, about us, policies) share one lazy chunk, and login,
 * checkout, the buyer's panel and the admin area load on demand. Those are built with Chakra:
 * each is wrapped in a ChakraBoundary, which loads Chakra (and builds its system) the first time
 * one of them renders.
 */
import { PAGES, routeWithin, type PageDeclaration } from '@subshare/core/pages';
import { lazy, type ReactNode } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { RequireAccess } from '../features/auth/components/RequireAccess';
import HomePage from '../features/catalog/pages/HomePage';
import PlatformPage from '../features/catalog/pages/PlatformPage';
import { POLICY_PAGES, type PolicyPage as Policy } from '../features/content/policies';
import { AppLayout } from '../features/shell/components/AppLayout';
import NotFoundPage from '../features/shell/pages/NotFoundPage';
import { ChakraBoundary, preloadChakra, type Alongside } from './chakra/ChakraBoundary';
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

const loadPanelPage = () => import('../features/panel/pages/UserPanelPage');
const UserPanelPage = lazy(loadPanelPage);
const loadAdminArea = () => import('../features/admin/AdminArea');
const AdminArea = lazy(loadAdminArea);

/**
 * The panel's and the admin area's chunk and first data, fetched beside Chakra's chunk (see
 * ChakraBoundary). The prefetch modules (with their API calls) are chunks of their own: the
 * storefront's first download does without them.
 */
const panelAlongside: Alongside = (state, location) => {
  void loadPanelPage().catch(() => undefined);
  void import('../features/panel/prefetch').then(({ prefetchPanel }) => prefetchPanel(state, location)).catch(() => undefined);
};
const adminAlongside: Alongside = (state, location) => {
  void loadAdminArea().catch(() => undefined);
  void import('../features/admin/prefetch').then(({ prefetchAdmin }) => prefetchAdmin(state, location)).catch(() => undefined);
};

/** `handle` of a route whose chunk main.tsx loads before the first render (pre-rendered pages). */
export interface RouteHandle {
  preload?: () => Promise<void>;
}

/** A pre-rendered page built with Chakra: its chunk and Chakra's are fetched before the first render. */
const preloaded = (preload: () => Promise<void>): RouteHandle => ({ preload: () => Promise.all([preload(), preloadChakra()]).then(() => undefined) });

/** A page built with Chakra (see ChakraBoundary). */
const withChakra = (page: ReactNode, alongside?: Alongside) => <ChakraBoundary alongside={alongside}>{page}</ChakraBoundary>;

/** A page's route below the layout (the site's root): its declared path without the leading '/'. */
const route = (page: PageDeclaration) => routeWithin(PAGES.home, page);

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: route(PAGES.platform), element: <PlatformPage /> },
      {
        path: route(PAGES.payment),
        element: <RequireAccess requirement="verifiedEmail">{withChakra(<PaymentPage />)}</RequireAccess>,
      },
      { path: route(PAGES.paymentResult), element: withChakra(<PaymentResultPage />) },
      { path: route(PAGES.payssionResult), element: withChakra(<PayssionResultPage />) },
      { path: route(PAGES.login), element: withChakra(<LoginPage />) },
      { path: route(PAGES.register), element: withChakra(<RegisterPage />) },
      { path: route(PAGES.naverCallback), element: withChakra(<NaverCallbackPage />) },
      {
        path: route(PAGES.user),
        element: <RequireAccess requirement="login">{withChakra(<UserPanelPage />, panelAlongside)}</RequireAccess>,
      },
      { path: route(PAGES.support), element: withChakra(<SupportPage />), handle: preloaded(SupportPage.preload) },
      { path: route(PAGES.faq), element: withChakra(<FaqPage />), handle: preloaded(FaqPage.preload) },
      { path: route(PAGES.howItWorks), element: withChakra(<HowItWorksPage />), handle: preloaded(HowItWorksPage.preload) },
      ...POLICY_PAGES.map((policy) => ({
        path: route(policy.page),
        element: withChakra(<PolicyPage policy={policy} />),
        handle: preloaded(PolicyPage.preload),
      })),
      {
        path: `${route(PAGES.admin)}/*`,
        element: <RequireAccess requirement="staff">{withChakra(<AdminArea />, adminAlongside)}</RequireAccess>,
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
