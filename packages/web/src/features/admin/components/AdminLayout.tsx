import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { NavLink, Outlet } from 'react-router-dom';
import type { DictionaryKey } from '../../language/dictionary';
import { useT } from '../../language/useT';

interface MenuGroup {
  title: DictionaryKey;
  items: Array<{ to: string; label: DictionaryKey; testId: string }>;
}

/** Spec section 2: ORDERS, SUBSCRIPTIONS and USERS menus beside a content outlet. */
const MENU: MenuGroup[] = [
  {
    title: 'admin.orders',
    items: [
      { to: '/jve/orders/2', label: 'admin.ordersCompleted', testId: 'admin-menu-orders-completed' },
      { to: '/jve/orders/6', label: 'admin.ordersNotCompleted', testId: 'admin-menu-orders-not-completed' },
    ],
  },
  {
    title: 'admin.subscriptions',
    items: [{ to: '/jve/createsubscriber', label: 'admin.createSubscription', testId: 'admin-menu-create-subscription' }],
  },
  {
    title: 'admin.users',
    items: [{ to: '/jve/users', label: 'admin.usersList', testId: 'admin-menu-users' }],
  },
];

export function AdminLayout() {
  const t = useT();
  return (
    <Flex data-testid="page-admin" direction={{ base: 'column', md: 'row' }} gap="6" px={{ base: '4', md: '6' }} py="6">
      <Box as="nav" aria-label={t('admin.title')} w={{ base: 'full', md: '60' }} flexShrink={0}>
        <Stack gap="5">
          {MENU.map((group) => (
            <Stack key={group.title} gap="1">
              <Text fontSize="xs" fontWeight="bold" color="fg.muted" letterSpacing="wider">
                {t(group.title)}
              </Text>
              {group.items.map((item) => (
                <Box
                  key={item.to}
                  asChild
                  px="3"
                  py="2"
                  borderRadius="md"
                  _hover={{ bg: 'bg.muted' }}
                  css={{ '&[aria-current=page]': { bg: 'purple.100', color: 'purple.800', fontWeight: 'semibold' } }}
                >
                  <NavLink to={item.to} data-testid={item.testId}>
                    {t(item.label)}
                  </NavLink>
                </Box>
              ))}
            </Stack>
          ))}
        </Stack>
      </Box>
      <Box flex="1" minW="0">
        <Outlet />
      </Box>
    </Flex>
  );
}
