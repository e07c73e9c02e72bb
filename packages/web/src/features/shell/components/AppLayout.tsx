import { Suspense } from 'react';
import { Box } from '@chakra-ui/react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Footer } from './Footer';
import { FullScreenLoader, LoadingOverlay } from './LoadingOverlay';
import { NavBar } from './NavBar';
import { SnackbarHost } from './Snackbar';

/** Navigation bar, the routed page, footer, the loading overlay and the snackbar around every route. */
export function AppLayout() {
  return (
    <Box minH="100vh" display="flex" flexDirection="column">
      <NavBar />
      {/* Spec: the main container is at least the window height minus 120px; the app at most 1280px wide. */}
      <Box as="main" flex="1" w="full" maxW="1280px" mx="auto" minH="calc(100vh - 120px)">
        {/* Lazily loaded areas (login, panel, admin) show the loader while their code arrives. */}
        <Suspense fallback={<FullScreenLoader testId="route-loading" />}>
          <Outlet />
        </Suspense>
      </Box>
      <Footer />
      <LoadingOverlay />
      <SnackbarHost />
      <ScrollRestoration />
    </Box>
  );
}
