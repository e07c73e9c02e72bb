/**
 * The admin screens' routes. Each body arrives with its own issue (orders paging, create
 * subscription, users, user page); the routes, titles and test ids exist now.
 */
import type { ReactNode } from 'react';
import { Heading, Text } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { useT } from '../../language/useT';

function AdminSection({ testId, title, children }: { testId: string; title: string; children?: ReactNode }) {
  return (
    <section data-testid={testId}>
      <Heading as="h1" size="2xl" mb="4">
        {title}
      </Heading>
      {children}
    </section>
  );
}

export function AdminHomePage() {
  const t = useT();
  return (
    <AdminSection testId="admin-home" title={t('admin.title')}>
      <Text color="fg.muted">{t('admin.welcome')}</Text>
    </AdminSection>
  );
}

export function AdminOrdersPage() {
  const t = useT();
  const { sid } = useParams();
  return <AdminSection testId="admin-orders" title={t('admin.ordersTitle', { state: sid ?? '' })} />;
}

export function AdminCreateSubscriptionPage() {
  const t = useT();
  return <AdminSection testId="admin-create-subscription" title={t('admin.createSubscriptionTitle')} />;
}

export function AdminUsersPage() {
  const t = useT();
  return <AdminSection testId="admin-users" title={t('admin.usersTitle')} />;
}

export function AdminUserPage() {
  const t = useT();
  const { id } = useParams();
  return <AdminSection testId="admin-user" title={t('admin.userTitle', { id: id ?? '' })} />;
}
