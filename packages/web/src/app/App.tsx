import { Provider } from 'react-redux';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { DocumentLanguage } from '../features/language/components/DocumentLanguage';
import { setNavigator } from '../services/navigation';
import { routes } from './routes';
import type { AppStore } from './store';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(routes);
  // Sagas navigate (log-out → home) through this, without importing the router.
  setNavigator((to, options) => void router.navigate(to, options));
  return router;
}

interface AppProps {
  store: AppStore;
  router: AppRouter;
}

/** The store and the router around every page; Chakra joins only below the pages that use it (app/chakra). */
export function App({ store, router }: AppProps) {
  return (
    <Provider store={store}>
      <DocumentLanguage />
      <RouterProvider router={router} />
    </Provider>
  );
}
