import { Box, Button, Flex, Text } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { selectSnackbar } from '../selectors';
import { snackbarClosed, snackbarHeld, snackbarReleased } from '../slice';

/**
 * The snackbar of spec section 8: the message and a 'close' action at the bottom of the
 * screen. Drawn by hand from layout primitives (no toast machinery in the first download);
 * the shell saga hides it after 3000 ms. The live regions exist before any message arrives,
 * so screen readers announce what is put into them.
 */
export function SnackbarHost() {
  const t = useT();
  const dispatch = useAppDispatch();
  const snackbar = useAppSelector(selectSnackbar);
  const error = snackbar?.tone === 'error' ? snackbar : null;
  const info = snackbar?.tone === 'info' ? snackbar : null;

  const render = (current: NonNullable<typeof snackbar>) => (
    <Flex
      key={current.id}
      data-testid="snackbar"
      data-tone={current.tone}
      pointerEvents="auto"
      align="center"
      gap="3"
      minW={{ base: 'full', sm: '344px' }}
      maxW="560px"
      px="4"
      py="2"
      borderRadius="md"
      bg="gray.900"
      color="white"
      boxShadow="lg"
      onPointerEnter={() => dispatch(snackbarHeld(current.id))}
      onPointerLeave={() => dispatch(snackbarReleased(current.id))}
      onFocus={() => dispatch(snackbarHeld(current.id))}
      onBlur={() => dispatch(snackbarReleased(current.id))}
    >
      <Text data-testid="snackbar-message" flex="1" py="1.5" fontSize="sm">
        {current.message}
      </Text>
      <Button
        data-testid="snackbar-close"
        size="sm"
        variant="ghost"
        color="purple.200"
        _hover={{ bg: 'whiteAlpha.200' }}
        textTransform="uppercase"
        onClick={() => dispatch(snackbarClosed(current.id))}
      >
        {t('snackbar.close')}
      </Button>
    </Flex>
  );

  return (
    <Box position="fixed" insetX="0" bottom="0" zIndex="toast" p="4" pointerEvents="none">
      <Flex role="alert" aria-live="assertive" aria-atomic="true" justify="center">
        {error && render(error)}
      </Flex>
      <Flex role="status" aria-live="polite" aria-atomic="true" justify="center">
        {info && render(info)}
      </Flex>
    </Box>
  );
}
