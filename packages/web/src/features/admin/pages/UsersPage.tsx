/**
 * /jve/users (spec section 2, "Admin area"): the e-mail search (required and valid, sent only
 * when valid: spec section 5), 'USERS COUNT: n', Refresh, Previous, Next and the page-size
 * selector; the table with SEND EMAIL, which asks for the kind of e-mail in a small dialog.
 */
import { pagePath } from '@subshare/core/pages';
import { useEffect, useMemo, useState } from 'react';
import { Button, Flex, Stack, Table, Text, chakra } from '@chakra-ui/react';
import { checkEmailSchema } from '@subshare/core/validation';
import * as yup from 'yup';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { RouterLink } from '../../../components/ui/links';
import type { AdminUser } from '../../../services/api/admin';
import { selectLanguage } from '../../language/selectors';
import { useValidationMessages } from '../../language/useValidationMessages';
import { AdminSection } from '../components/AdminSection';
import { PagedListView } from '../components/PagedListView';
import { SearchForm } from '../components/SearchForm';
import { SendEmailDialog } from '../components/SendEmailDialog';
import { formatDateTime } from '../format';
import { rowNumber } from '../paging';
import { selectUsers } from '../selectors';
import { emailSendRequested, usersClosed, usersLimitChosen, usersOpened, usersPageChosen, usersRefreshed, usersSearched } from '../slice';
import { adminKey, ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

export default function UsersPage() {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const users = useAppSelector(selectUsers);
  const messages = useValidationMessages();
  // The shared e-mail rule (required, valid), under the search box's field name.
  const searchSchema = useMemo(() => yup.object({ query: checkEmailSchema(messages).fields.email }), [messages]);
  const [dialogFor, setDialogFor] = useState<AdminUser | null>(null);

  useEffect(() => {
    dispatch(usersOpened());
    return () => {
      dispatch(usersClosed());
    };
  }, [dispatch]);

  const headers = [
    t('admin.col.number'),
    t('admin.col.id'),
    t('admin.col.name'),
    t('admin.col.email'),
    t('admin.col.subscriptions'),
    t('admin.col.role'),
    t('admin.col.date'),
    t('admin.col.action'),
  ];

  return (
    <AdminSection testId="admin-users" title={t('admin.usersTitle')} data={{ 'data-status': users.status, 'data-search': users.search ?? undefined }}>
      <Stack gap="5">
        <SearchForm
          testId="admin-users-search"
          label={t('admin.userSearch')}
          type="email"
          inputMode="email"
          schema={searchSchema as yup.ObjectSchema<{ query: string }>}
          onSearch={(email) => dispatch(usersSearched(email))}
        />
        {users.search !== null && (
          <Flex align="center" gap="3" wrap="wrap">
            <Text data-testid="admin-users-search-shown" color="fg.muted" overflowWrap="anywhere">
              {t('admin.searchShown', { query: users.search })}
            </Text>
            <Button data-testid="admin-users-show-all" size="xs" variant="ghost" onClick={() => dispatch(usersRefreshed())}>
              {t('admin.showAll')}
            </Button>
          </Flex>
        )}
        <PagedListView
          testId="admin-users"
          list={users}
          actions={{ refreshed: usersRefreshed, pageChosen: usersPageChosen, limitChosen: usersLimitChosen }}
          texts={{ count: t('admin.usersCount', { count: users.paging.count }), caption: t('admin.usersTitle'), empty: t('admin.noUsers') }}
          headers={headers}
        >
          {users.rows.map((user, index) => (
            <UserRow
              key={user.id}
              user={user}
              number={users.search !== null ? index + 1 : rowNumber(users.paging, index)}
              sending={users.sending.includes(user.id)}
              onSendEmail={() => setDialogFor(user)}
            />
          ))}
        </PagedListView>
      </Stack>
      {dialogFor && (
        <SendEmailDialog
          user={dialogFor}
          onClose={() => setDialogFor(null)}
          onSend={(emailType) => {
            dispatch(emailSendRequested({ userId: dialogFor.id, emailType }));
            setDialogFor(null);
          }}
        />
      )}
    </AdminSection>
  );
}

function UserRow({ user, number, sending, onSendEmail }: { user: AdminUser; number: number; sending: boolean; onSendEmail: () => void }) {
  const t = useT(ADMIN_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const roleKey = adminKey('admin.role', user.role);
  return (
    <Table.Row data-testid="admin-user-row" data-user-id={user.id}>
      <Table.Cell data-testid="admin-user-number">{number}</Table.Cell>
      <Table.Cell data-testid="admin-user-id" fontWeight="semibold">
        {user.id}
      </Table.Cell>
      <Table.Cell data-testid="admin-user-name" minW="24">
        {user.name || '—'}
      </Table.Cell>
      <Table.Cell data-testid="admin-user-email" minW="44">
        <RouterLink to={pagePath.adminUser(user.id)} data-testid="admin-user-link" colorPalette="purple" overflowWrap="anywhere">
          {user.email}
        </RouterLink>
        {!user.isEmailVerified && (
          <chakra.span display="block" fontSize="xs" color="fg.muted">
            {t('admin.notVerified')}
          </chakra.span>
        )}
      </Table.Cell>
      <Table.Cell data-testid="admin-user-subscriptions" textAlign="end">
        {user.subscribersCount}
      </Table.Cell>
      <Table.Cell data-testid="admin-user-role">{roleKey ? t(roleKey) : user.role}</Table.Cell>
      <Table.Cell data-testid="admin-user-date" minW="28">
        {formatDateTime(user.createdDate, culture)}
      </Table.Cell>
      <Table.Cell>
        <Button
          data-testid="admin-user-send-email"
          size="xs"
          variant="outline"
          colorPalette="purple"
          whiteSpace="nowrap"
          loading={sending}
          aria-label={t('admin.sendEmailLabel', { email: user.email })}
          onClick={onSendEmail}
        >
          {t('admin.sendEmail')}
        </Button>
      </Table.Cell>
    </Table.Row>
  );
}
