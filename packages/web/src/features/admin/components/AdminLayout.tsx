import { pagePath } from '@subshare/core/pages';
import { useEffect, useState } from 'react';
import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { useIsDesktop } from '../../../components/ui/useIsDesktop';
import { selectUser } from '../../auth/selectors';
import { ROLES } from '../../auth/session';
import { ADMIN_TEXTS, type AdminTextKey } from '../texts';
import { useT } from '../../language/useT';

interface MenuGroup {
  title: AdminTextKey;
  /** `adminOnly`: an entry moderators do not see (the server refuses them too). */
  items: Array<{ to: string; label: AdminTextKey; testId: string; end?: boolean; adminOnly?: boolean }>;
  /** Shown to admins only (moderators do not see it; the server refuses them too). */
  adminOnly?: boolean;
}

/** Spec section 2: ORDERS, SUBSCRIPTIONS and USERS menus beside a content outlet; the dashboard and refunded orders beyond the spec. */
const MENU: MenuGroup[] = [
  {
    title: 'admin.title',
    items: [{ to: pagePath.admin(), label: 'admin.dashboard', testId: 'admin-menu-dashboard', end: true }],
  },
  {
    title: 'admin.orders',
    items: [
      { to: pagePath.adminOrders(2), label: 'admin.ordersCompleted', testId: 'admin-menu-orders-completed' },
      { to: pagePath.adminOrders(6), label: 'admin.ordersNotCompleted', testId: 'admin-menu-orders-not-completed' },
      { to: pagePath.adminOrders(5), label: 'admin.ordersRefunded', testId: 'admin-menu-orders-refunded' },
    ],
  },
  {
    title: 'admin.subscriptions',
    items: [
      { to: pagePath.adminCreateSubscription(), label: 'admin.createSubscription', testId: 'admin-menu-create-subscription' },
      { to: pagePath.adminHealth(), label: 'admin.accountHealth', testId: 'admin-menu-health' },
    ],
  },
  {
    title: 'admin.users',
    items: [{ to: pagePath.adminUsers(), label: 'admin.usersList', testId: 'admin-menu-users' }],
  },
  {
    title: 'admin.staffGroup',
    items: [
      { to: pagePath.adminStaff(), label: 'admin.staffRoles', testId: 'admin-menu-staff', adminOnly: true },
      { to: pagePath.adminAudit(), label: 'admin.auditLog', testId: 'admin-menu-audit', adminOnly: true },
      { to: pagePath.adminOutbox(), label: 'admin.outbox', testId: 'admin-menu-outbox' },
    ],
  },
  {
    title: 'admin.catalog',
    adminOnly: true,
    items: [
      { to: pagePath.adminCatalog(), label: 'admin.catalogPlatforms', testId: 'admin-menu-catalog' },
      { to: pagePath.adminPromos(), label: 'admin.promoCodes', testId: 'admin-menu-promos' },
    ],
  },
];

function Menu() {
  const t = useT(ADMIN_TEXTS);
  const isAdmin = (useAppSelector(selectUser)?.role ?? ROLES.user) >= ROLES.admin;
  return (
    <Stack gap="5">
      {MENU.filter((group) => isAdmin || !group.adminOnly).map((group) => (
        <Stack key={group.title} gap="1" role="group" aria-label={t(group.title)}>
          <Text fontSize="xs" fontWeight="bold" color="fg.muted" letterSpacing="wider" textTransform="uppercase">
            {t(group.title)}
          </Text>
          {group.items
            .filter((item) => isAdmin || !item.adminOnly)
            .map((item) => (
              <Box
                key={item.to}
                asChild
                px="3"
                py="2"
                borderRadius="md"
                _hover={{ bg: 'bg.muted' }}
                css={{ '&[aria-current=page]': { bg: 'purple.100', color: 'purple.800', fontWeight: 'semibold' } }}
              >
                <NavLink to={item.to} end={item.end} data-testid={item.testId}>
                  {t(item.label)}
                </NavLink>
              </Box>
            ))}
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * The admin area's frame. Desktop: the menu in a column beside the content outlet. Phone: a
 * menu button above the content opens the menu, which closes again once a page is chosen.
 */
export function AdminLayout() {
  const t = useT(ADMIN_TEXTS);
  const isDesktop = useIsDesktop();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();

  useEffect(() => {
    setOpen(false);
  }, [pathname]);

  return (
    <Flex
      data-testid="page-admin"
      data-layout={isDesktop ? 'desktop' : 'mobile'}
      direction={{ base: 'column', md: 'row' }}
      gap="6"
      px={{ base: '4', md: '6' }}
      py="6"
      // Korean words stay whole where a narrow column wraps them (a phone's table cells, badges):
      // without it Korean breaks between any two syllables. overflowWrap still breaks an e-mail
      // or a word too long for its box.
      wordBreak="keep-all"
      overflowWrap="break-word"
    >
      <Box as="nav" aria-label={t('admin.menu')} w={{ base: 'full', md: '60' }} flexShrink={0}>
        {isDesktop ? (
          <Menu />
        ) : (
          <Stack gap="3">
            <Button
              data-testid="admin-menu-toggle"
              variant="outline"
              justifyContent="space-between"
              aria-expanded={open}
              aria-controls="admin-menu-panel"
              onClick={() => setOpen((current) => !current)}
            >
              {t('admin.menuToggle')}
              <span aria-hidden="true">{open ? '▲' : '▼'}</span>
            </Button>
            {open && (
              <Box id="admin-menu-panel" borderWidth="1px" borderRadius="md" p="3">
                <Menu />
              </Box>
            )}
          </Stack>
        )}
      </Box>
      <Box flex="1" minW="0">
        <Outlet />
      </Box>
    </Flex>
  );
}
