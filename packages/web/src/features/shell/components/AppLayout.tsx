import { Suspense } from 'react';
import { Box, chakra } from '@chakra-ui/react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { useT } from '../../language/useT';
import { Footer } from './Footer';
import { FullScreenLoader, LoadingOverlay } from './LoadingOverlay';
import { NavBar } from './NavBar';
import { SnackbarHost } from './Snackbar';

export const MAIN_CONTENT_ID = 'main-content';

/** The first focusable element: keyboard and screen-reader users jump over the navigation to the page. */
function SkipLink() {
  const t = useT();
  return (
    <chakra.a
      href={`#${MAIN_CONTENT_ID}`}
      data-testid="skip-link"
      position="absolute"
      top="2"
      insetStart="2"
      zIndex="skipLink"
      px="4"
      py="2"
      borderRadius="md"
      bg="purple.700"
      color="white"
      fontWeight="semibold"
      transform="translateY(-200%)"
      _focusVisible={{ transform: 'translateY(0)', outline: '3px solid', outlineColor: 'purple.300', outlineOffset: '2px' }}
    >
      {t('common.skipToContent')}
    </chakra.a>
  );
}

/** Navigation bar, the routed page, footer, the loading overlay and the snackbar around every route. */
export function AppLayout() {
  return (
    <Box minH="100vh" display="flex" flexDirection="column">
      <SkipLink />
      <NavBar />
      {/* Spec: the main container is at least the window height minus 120px; the app at most 1280px wide. */}
      <Box as="main" id={MAIN_CONTENT_ID} tabIndex={-1} flex="1" w="full" maxW="1280px" mx="auto" minH="calc(100vh - 120px)" outline="none">
        {/* Lazily loaded areas (static pages, login, panel, admin) show the loader while their code arrives. */}
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
