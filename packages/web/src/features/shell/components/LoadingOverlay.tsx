import { Box, Center, Spinner, VisuallyHidden } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { Logo } from '../../../components/ui/Logo';
import { useT } from '../../language/useT';
import { selectIsLoading } from '../selectors';

/** Full-screen overlay with a 160px spinner around the logo (spec section 2 and 9). */
export function FullScreenLoader({ testId = 'loading-overlay' }: { testId?: string }) {
  const t = useT();
  return (
    <Center data-testid={testId} role="status" aria-live="polite" position="fixed" inset="0" zIndex="overlay" bg="whiteAlpha.800" backdropFilter="blur(2px)">
      <Box position="relative" boxSize="160px">
        <Spinner position="absolute" inset="0" color="purple.600" borderWidth="4px" css={{ '--spinner-size': '160px' }} />
        <Center position="absolute" inset="0">
          <Logo markOnly height={56} />
        </Center>
      </Box>
      <VisuallyHidden>{t('app.loading')}</VisuallyHidden>
    </Center>
  );
}

/** Shown while any request is in flight. */
export function LoadingOverlay() {
  const isLoading = useAppSelector(selectIsLoading);
  return isLoading ? <FullScreenLoader /> : null;
}
