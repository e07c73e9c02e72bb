import { ChakraProvider } from '@chakra-ui/react';
import { Provider } from 'react-redux';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { system } from '../components/ui/system';
import { DocumentLanguage } from '../features/language/components/DocumentLanguage';
import { setNavigator } from '../services/navigation';
import { routes } from './routes';
import type { AppStore } from './store';

const router = createBrowserRouter(routes);

// Sagas navigate (log-out → home) through this, without importing the router.
setNavigator((to, options) => void router.navigate(to, options));

export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <ChakraProvider value={system}>
        <DocumentLanguage />
        <RouterProvider router={router} />
      </ChakraProvider>
    </Provider>
  );
}
