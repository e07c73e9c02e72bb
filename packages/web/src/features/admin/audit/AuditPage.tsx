/**
 * /jve/audit (issue 15, admins): the audit log, newest first, a page at a time, filtered by actor
 * (e-mail or id), action and object. The filters live in the address (`?action=user.role`), so a
 * filtered view can be linked. Each entry links to the order, user or platform it names; reveals
 * of credentials and mailboxes stand out with a red mark and the words "Secret revealed".
 */
import { pagePath } from '@subshare/core/pages';
import { useEffect, useMemo } from 'react';
import { Button, Flex, SimpleGrid, Stack, Table, Text, chakra } from '@chakra-ui/react';
import { Form, Formik } from 'formik';
import * as yup from 'yup';
import { useSearchParams } from 'react-router-dom';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '@subshare/core/validation';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { injectSaga } from '../../../app/sagaInjector';
import { FormField } from '../../../components/ui/FormField';
import { RouterLink } from '../../../components/ui/links';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import type { AuditEntry } from '../../../services/api/staffScreens';
import { selectUser } from '../../auth/selectors';
import { ROLES } from '../../auth/session';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { AdminSection } from '../components/AdminSection';
import { PagedListView } from '../components/PagedListView';
import { formatDateTime } from '../format';
import { auditLogSaga } from './saga';
import { auditLimitChosen, auditOpened, auditPageChosen, auditRefreshed, emptyAuditFilter, selectAuditLog, type AuditFilterForm } from './slice';
import { actionLabel, describeDetails, targetTypeLabel } from './details';
import { AUDIT_TEXTS } from './texts';

injectSaga('auditLog', auditLogSaga);

/** Actions that hand a secret to a person: the platform credentials, a mailbox's password, a mailbox's mail. */
export const REVEAL_ACTIONS: ReadonlySet<string> = new Set(['credentials.reveal', 'mailbox.reveal', 'mailbox.read']);

/** The actions the log records, for the filter's list (any other can still come through the address). */
const KNOWN_ACTIONS: readonly string[] = AUDIT_ACTIONS;
const FIELDS = ['actor', 'action', 'targetType', 'targetId'] as const;

const filterOf = (params: URLSearchParams): AuditFilterForm => {
  const form = emptyAuditFilter();
  for (const field of FIELDS) form[field] = (params.get(field) ?? '').slice(0, 254);
  return form;
};

export default function AuditPage() {
  const t = useT(AUDIT_TEXTS);
  const isAdmin = (useAppSelector(selectUser)?.role ?? ROLES.user) >= ROLES.admin;
  if (!isAdmin) return <AdminSection testId="admin-audit-admins-only" title={t('audit.adminsOnly')} />;
  return <AuditScreen />;
}

function AuditScreen() {
  const t = useT(AUDIT_TEXTS);
  const dispatch = useAppDispatch();
  const log = useAppSelector(selectAuditLog);
  const [params, setParams] = useSearchParams();
  const address = params.toString();

  useEffect(() => {
    dispatch(auditOpened(filterOf(new URLSearchParams(address))));
  }, [dispatch, address]);

  const applyFilter = (form: AuditFilterForm) => {
    const next = new URLSearchParams();
    for (const field of FIELDS) if (form[field].trim()) next.set(field, form[field].trim());
    // The same address again (Filter pressed twice) still asks anew.
    if (next.toString() === address) dispatch(auditRefreshed());
    else setParams(next);
  };

  // The filters the shown page was asked with (the slice's, which change together with the status).
  const shownFilter = new URLSearchParams(FIELDS.filter((field) => log.filter[field]).map((field) => [field, log.filter[field]])).toString();
  const headers = [t('audit.col.at'), t('audit.col.actor'), t('audit.col.action'), t('audit.col.target'), t('audit.col.details'), t('audit.col.ip')];
  return (
    <AdminSection testId="admin-audit" title={t('audit.title')} data={{ 'data-status': log.status, 'data-filter': shownFilter || undefined }}>
      <Stack gap="5">
        <FilterForm initial={log.filter} address={address} onApply={applyFilter} />
        <PagedListView
          testId="admin-audit"
          list={log}
          actions={{ refreshed: auditRefreshed, pageChosen: auditPageChosen, limitChosen: auditLimitChosen }}
          texts={{ count: t('audit.count', { count: log.paging.count }), caption: t('audit.title'), empty: t('audit.empty') }}
          headers={headers}
        >
          {log.rows.map((entry) => (
            <AuditRow key={entry.id} entry={entry} />
          ))}
        </PagedListView>
      </Stack>
    </AdminSection>
  );
}

function FilterForm({ initial, address, onApply }: { initial: AuditFilterForm; address: string; onApply: (form: AuditFilterForm) => void }) {
  const t = useT(AUDIT_TEXTS);
  const schema = useMemo(
    () => yup.object({ actor: yup.string().max(254), action: yup.string().max(100), targetType: yup.string().max(50), targetId: yup.string().max(100) }),
    [],
  );
  const actions = KNOWN_ACTIONS.includes(initial.action) || !initial.action ? KNOWN_ACTIONS : [initial.action, ...KNOWN_ACTIONS];
  return (
    // A new address (a link, Clear) starts the form from it.
    <Formik key={address} initialValues={initial} validationSchema={schema} onSubmit={(values) => onApply(values)}>
      <Form noValidate data-testid="admin-audit-filters" role="search" aria-label={t('audit.filters')}>
        <SimpleGrid columns={{ base: 1, md: 2, xl: 4 }} gap="3">
          <FormField name="actor" label={t('audit.actor')} testId="admin-audit-actor" autoComplete="off" />
          <FormField
            type="select"
            name="action"
            label={t('audit.action')}
            testId="admin-audit-action"
            placeholder={t('audit.anyAction')}
            options={actions.map((value) => ({ value, label: actionLabel(value, t) }))}
          />
          <FormField
            type="select"
            name="targetType"
            label={t('audit.targetType')}
            testId="admin-audit-target-type"
            placeholder={t('audit.anyTarget')}
            options={AUDIT_TARGET_TYPES.map((value) => ({ value, label: targetTypeLabel(value, t) }))}
          />
          <FormField name="targetId" label={t('audit.targetId')} testId="admin-audit-target-id" autoComplete="off" />
        </SimpleGrid>
        <Flex gap="3" mt="3" wrap="wrap">
          <Button type="submit" data-testid="admin-audit-apply" colorPalette="purple">
            {t('audit.apply')}
          </Button>
          <Button type="button" data-testid="admin-audit-clear" variant="outline" onClick={() => onApply(emptyAuditFilter())}>
            {t('audit.clear')}
          </Button>
        </Flex>
      </Form>
    </Formik>
  );
}

/** Where an entry's object is shown in /jve: an order in the orders search, a user's page, a platform in the catalog editor. */
function targetPath(type: string | null, id: string | null): string | null {
  if (!id || !/^\d{1,15}$/.test(id)) return null;
  if (type === 'order') return pagePath.adminOrders(2, id);
  if (type === 'user') return pagePath.adminUser(id);
  if (type === 'platform') return pagePath.adminPlatform(id);
  return null;
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const t = useT(AUDIT_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const reveal = REVEAL_ACTIONS.has(entry.action);
  const target = entry.target;
  const path = target ? targetPath(target.type, target.id) : null;
  const targetText = !target ? '—' : t('audit.target', { type: target.type ? targetTypeLabel(target.type, t) : '', id: target.id ?? '' }).trim();
  const details = JSON.stringify(entry.details);
  const described = describeDetails(entry.action, entry.details, t, culture);
  return (
    <Table.Row
      data-testid="admin-audit-row"
      data-action={entry.action}
      data-reveal={reveal ? 'true' : undefined}
      bg={reveal ? 'red.50' : undefined}
      css={reveal ? { '& > td:first-of-type': { boxShadow: 'inset 4px 0 0 var(--chakra-colors-red-500)' } } : undefined}
    >
      <Table.Cell minW="28">{formatDateTime(entry.at, culture)}</Table.Cell>
      <Table.Cell minW="40" overflowWrap="anywhere">
        {entry.actor.userId ? (
          <RouterLink to={pagePath.adminUser(entry.actor.userId)} data-testid="admin-audit-actor-link" colorPalette="purple">
            {entry.actor.label ?? `#${entry.actor.userId}`}
          </RouterLink>
        ) : entry.actor.label === 'cli' ? (
          t('audit.cli')
        ) : (
          (entry.actor.label ?? '—')
        )}
      </Table.Cell>
      <Table.Cell minW="36">
        <Stack gap="1" align="flex-start">
          <Text data-testid="admin-audit-action-label" fontWeight="medium">
            {actionLabel(entry.action, t)}
          </Text>
          <chakra.code data-testid="admin-audit-action" fontSize="xs" color="fg.muted">
            {entry.action}
          </chakra.code>
          {reveal && (
            <StatusBadge tone="red" testId="admin-audit-reveal">
              {t('audit.reveal')}
            </StatusBadge>
          )}
        </Stack>
      </Table.Cell>
      <Table.Cell minW="28">
        {path ? (
          <RouterLink to={path} data-testid="admin-audit-target-link" colorPalette="purple">
            {targetText}
          </RouterLink>
        ) : (
          <Text data-testid="admin-audit-target">{targetText}</Text>
        )}
      </Table.Cell>
      <Table.Cell minW="48" maxW="md">
        <Stack data-testid="admin-audit-details" gap="0.5" fontSize="sm" overflowWrap="anywhere" title={details}>
          {described.lines.map((line) => (
            <Text key={line.key} data-testid="admin-audit-detail" data-key={line.key}>
              <chakra.span color="fg.muted">{line.label}:</chakra.span> {line.value}
            </Text>
          ))}
          {described.reason && (
            <Text data-testid="admin-audit-reason" whiteSpace="pre-wrap">
              <chakra.span color="fg.muted">{t('audit.reasonLabel')}:</chakra.span> {described.reason}
            </Text>
          )}
        </Stack>
      </Table.Cell>
      <Table.Cell>{entry.ip ?? '—'}</Table.Cell>
    </Table.Row>
  );
}
