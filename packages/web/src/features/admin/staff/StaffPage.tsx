/**
 * /jve/staff (issue 15, admins): every moderator and admin with the time they got the role, a
 * form that gives a user a role by e-mail, and a button per row that takes one step down. The
 * server refuses to demote the last admin; its message shows beside the form.
 */
import { pagePath } from '@subshare/core/pages';
import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Flex, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { Form, Formik } from 'formik';
import * as yup from 'yup';
import { email as emailRule } from '@subshare/core/validation';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { injectSaga } from '../../../app/sagaInjector';
import { FormField } from '../../../components/ui/FormField';
import { RouterLink } from '../../../components/ui/links';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import type { StaffMember } from '../../../services/api/staffScreens';
import { selectUser } from '../../auth/selectors';
import { ROLES } from '../../auth/session';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { AdminSection } from '../components/AdminSection';
import { ConfirmDialog, type ConfirmRequest } from '../components/ConfirmDialog';
import { ListBody } from '../components/ListBody';
import { formatDateTime } from '../format';
import { staffPageSaga } from './saga';
import { roleChangeRequested, selectStaffPage, staffOpened, type StaffRole } from './slice';
import { roleKey, STAFF_TEXTS } from './texts';

injectSaga('staffPage', staffPageSaga);

export default function StaffPage() {
  const t = useT(STAFF_TEXTS);
  const isAdmin = (useAppSelector(selectUser)?.role ?? ROLES.user) >= ROLES.admin;
  if (!isAdmin) return <AdminSection testId="admin-staff-admins-only" title={t('staff.adminsOnly')} />;
  return <StaffScreen />;
}

/** Asks before granting Admin or taking a role away (naming the user); other changes go straight on. */
type AskFirst = (change: { email: string; role: StaffRole }) => void;

function StaffScreen() {
  const t = useT(STAFF_TEXTS);
  const dispatch = useAppDispatch();
  const page = useAppSelector(selectStaffPage);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);

  const askFirst: AskFirst = (change) => {
    const apply = () => dispatch(roleChangeRequested(change));
    const current = page.members.find((member) => member.email.toLowerCase() === change.email.toLowerCase())?.role ?? 0;
    if (change.role === 2 && current !== 2) {
      setConfirm({
        title: t('staff.confirmAdminTitle'),
        text: t('staff.confirmAdminText', { email: change.email }),
        confirmLabel: t('staff.confirmAdminOk'),
        onConfirm: apply,
      });
    } else if (change.role < current) {
      setConfirm({
        title: t('staff.confirmDemoteTitle'),
        text: t('staff.confirmDemoteText', { email: change.email, role: t(roleKey(change.role)) }),
        confirmLabel: t('staff.confirmDemoteOk'),
        danger: true,
        onConfirm: apply,
      });
    } else {
      apply();
    }
  };

  useEffect(() => {
    dispatch(staffOpened());
  }, [dispatch]);

  const headers = [t('staff.col.email'), t('staff.col.name'), t('staff.col.role'), t('staff.col.since'), t('staff.col.action')];
  return (
    <AdminSection testId="admin-staff" title={t('staff.title')} data={{ 'data-status': page.status }}>
      <Stack gap="6">
        <RoleForm askFirst={askFirst} />
        <Text data-testid="admin-staff-count" fontWeight="semibold" letterSpacing="wide">
          {t('staff.count', { count: page.members.length })}
        </Text>
        <ListBody
          testId="admin-staff-table"
          caption={t('staff.title')}
          status={page.status}
          headers={headers}
          rowCount={page.members.length}
          emptyText={t('staff.empty')}
        >
          {page.members.map((member) => (
            <StaffRow key={member.id} member={member} busy={page.changing === member.email} askFirst={askFirst} />
          ))}
        </ListBody>
      </Stack>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </AdminSection>
  );
}

function RoleForm({ askFirst }: { askFirst: AskFirst }) {
  const t = useT(STAFF_TEXTS);
  const messages = useValidationMessages();
  const { changing, error, changes } = useAppSelector(selectStaffPage);
  const schema = useMemo(() => yup.object({ email: emailRule(messages), role: yup.string().required(messages.required).oneOf(['0', '1', '2']) }), [messages]);
  const options = ([1, 2, 0] as const).map((role) => ({ value: String(role), label: t(roleKey(role)) }));
  return (
    <Box borderWidth="1px" borderRadius="md" p="4">
      <Heading as="h2" size="md" mb="3">
        {t('staff.formTitle')}
      </Heading>
      {/* A new key after each success starts the form afresh. */}
      <Formik
        key={changes}
        initialValues={{ email: '', role: '' }}
        validationSchema={schema}
        onSubmit={(values) => {
          const valid = schema.cast(values);
          askFirst({ email: valid.email, role: Number(valid.role) as StaffRole });
        }}
      >
        <Form noValidate data-testid="admin-staff-form" aria-label={t('staff.formTitle')}>
          <Flex gap="3" direction={{ base: 'column', md: 'row' }} align={{ base: 'stretch', md: 'flex-end' }}>
            <Stack flex="2" minW="0">
              <FormField name="email" type="email" inputMode="email" label={t('staff.email')} testId="admin-staff-email" autoComplete="off" required />
            </Stack>
            <Stack flex="1" minW="0">
              <FormField
                type="select"
                name="role"
                label={t('staff.role')}
                testId="admin-staff-role"
                placeholder={t('staff.choose')}
                options={options}
                required
              />
            </Stack>
            <Button type="submit" data-testid="admin-staff-submit" size="lg" colorPalette="purple" loading={changing !== null}>
              {t('staff.save')}
            </Button>
          </Flex>
        </Form>
      </Formik>
      {error && (
        <Box data-testid="admin-staff-error" role="alert" mt="3" p="3" borderRadius="md" bg="bg.error" color="fg.error">
          {error}
        </Box>
      )}
      <Text mt="3" fontSize="sm" color="fg.muted">
        {t('staff.note')}
      </Text>
    </Box>
  );
}

function StaffRow({ member, busy, askFirst }: { member: StaffMember; busy: boolean; askFirst: AskFirst }) {
  const t = useT(STAFF_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  // One step down: an admin becomes a moderator, a moderator a user.
  const down: StaffRole = member.role === 2 ? 1 : 0;
  return (
    <Table.Row data-testid="admin-staff-row" data-user-id={member.id} data-role={member.role}>
      <Table.Cell minW="44">
        <RouterLink to={pagePath.adminUser(member.id)} data-testid="admin-staff-email-link" colorPalette="purple" overflowWrap="anywhere">
          {member.email}
        </RouterLink>
      </Table.Cell>
      <Table.Cell minW="24">{member.name || '—'}</Table.Cell>
      <Table.Cell data-testid="admin-staff-row-role">
        <StatusBadge tone={member.role === 2 ? 'purple' : 'gray'} testId="admin-staff-role-badge">
          {t(roleKey(member.role))}
        </StatusBadge>
      </Table.Cell>
      <Table.Cell minW="28">{formatDateTime(member.since, culture)}</Table.Cell>
      <Table.Cell>
        <Button
          data-testid="admin-staff-demote"
          size="xs"
          variant="outline"
          colorPalette="red"
          whiteSpace="nowrap"
          loading={busy}
          aria-label={t(down === 1 ? 'staff.toModeratorLabel' : 'staff.demoteLabel', { email: member.email })}
          onClick={() => askFirst({ email: member.email, role: down })}
        >
          {t(down === 1 ? 'staff.toModerator' : 'staff.demote')}
        </Button>
      </Table.Cell>
    </Table.Row>
  );
}
