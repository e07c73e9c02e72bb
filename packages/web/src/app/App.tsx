import { ChakraProvider } from '@chakra-ui/react';
import { Provider } from 'react-redux';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import type { AppSystem } from '../components/ui/system';
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
  system: AppSystem;
  router: AppRouter;
}

export function App({ store, system, router }: AppProps) {
  return (
    <Provider store={store}>
      <ChakraProvider value={system}>
        <DocumentLanguage />
        <RouterProvider router={router} />
      </ChakraProvider>
    </Provider>
  );
}
