import { Button } from '@chakra-ui/react';
import { useAppDispatch } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { naverLoginStarted } from '../slice';

/** Naver's green login button (its brand colour and "N" mark); the saga leaves for Naver. */
export function NaverButton() {
  const t = useT();
  const dispatch = useAppDispatch();
  return (
    <Button
      data-testid="naver-button"
      size="lg"
      w="full"
      maxW="400px"
      bg="#03C75A"
      color="white"
      _hover={{ bg: '#02b351' }}
      _active={{ bg: '#029f48' }}
      onClick={() => dispatch(naverLoginStarted())}
    >
      <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
        <path fill="currentColor" d="M13.56 10.7 6.17 0H0v20h6.44V9.3L13.83 20H20V0h-6.44z" />
      </svg>
      {t('login.naver')}
    </Button>
  );
}
