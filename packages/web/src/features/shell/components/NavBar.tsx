import { useEffect, useState } from 'react';
import { Box, Button, Flex, HStack, Stack } from '@chakra-ui/react';
import { Link as RouterLinkBase, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ButtonLink, RouterLink } from '../../../components/ui/links';
import { Logo } from '../../../components/ui/Logo';
import { useIsDesktop } from '../../../components/ui/useIsDesktop';
import { ProfilePicture } from '../../auth/components/ProfilePicture';
import { CurrencySelect } from '../../catalog/components/CurrencySelect';
import { selectUser } from '../../auth/selectors';
import { logoutRequested } from '../../auth/slice';
import { LanguageToggle } from '../../language/components/LanguageToggle';
import { useT } from '../../language/useT';

/** The links that depend on who is logged in; laid out in a row (desktop) or a column (menu). */
function AccountLinks({ direction }: { direction: 'row' | 'column' }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);

  if (!user) {
    return (
      <ButtonLink data-testid="nav-login" to="/login" size="sm" colorPalette="purple">
        {t('nav.login')}
      </ButtonLink>
    );
  }
  return (
    <Stack direction={direction} gap={direction === 'row' ? '4' : '3'} align={direction === 'row' ? 'center' : 'stretch'}>
      <HStack gap="2">
        <ProfilePicture photoUrl={user.photoUrl} alt={t('nav.profilePicture')} />
        <RouterLink data-testid="nav-my-subscriptions" to={`/user/${user.id}`} fontWeight="medium">
          {t('nav.mySubscriptions')}
        </RouterLink>
      </HStack>
      <Button data-testid="nav-logout" size="sm" variant="outline" onClick={() => dispatch(logoutRequested())}>
        {t('nav.logout')}
      </Button>
    </Stack>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
    </svg>
  );
}

export function NavBar() {
  const t = useT();
  const isDesktop = useIsDesktop();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();

  // Following a link from the phone menu closes it.
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <Box as="header" borderBottomWidth="1px" bg="bg" position="sticky" top="0" zIndex="sticky">
      <Flex as="nav" aria-label={t('nav.main')} maxW="1280px" mx="auto" h="16" px={{ base: '4', md: '6' }} align="center" gap="4">
        <RouterLinkBase to="/" data-testid="nav-home" aria-label={t('nav.home')}>
          <Logo height={isDesktop ? 32 : 28} />
        </RouterLinkBase>
        <Box flex="1" />
        {isDesktop ? (
          <HStack gap="5">
            <RouterLink data-testid="nav-how-it-works" to="/howitworks">
              {t('nav.howItWorks')}
            </RouterLink>
            <CurrencySelect />
            <LanguageToggle />
            <AccountLinks direction="row" />
          </HStack>
        ) : (
          <HStack gap="2">
            <CurrencySelect />
            <LanguageToggle />
            <Button
              data-testid="nav-menu-toggle"
              variant="ghost"
              size="sm"
              aria-label={t('nav.menu')}
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              <MenuIcon open={menuOpen} />
            </Button>
          </HStack>
        )}
      </Flex>
      {!isDesktop && menuOpen && (
        <Stack id="mobile-menu" data-testid="nav-mobile-menu" px="4" pb="4" gap="4" borderTopWidth="1px" pt="4">
          <RouterLink data-testid="nav-how-it-works" to="/howitworks">
            {t('nav.howItWorks')}
          </RouterLink>
          <AccountLinks direction="column" />
        </Stack>
      )}
    </Box>
  );
}
