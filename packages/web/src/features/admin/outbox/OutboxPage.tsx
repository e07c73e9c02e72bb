/**
 * /jve/outbox (issue 15, moderators and admins): the e-mails the shop wrote, newest first, a page
 * at a time, with recipient, kind, language, state, attempts and last error; a preview of one
 * (subject and text, read through the audited call that masks one-time codes) and Retry on a
 * failed one. A state is a coloured pill with its word, never colour alone.
 */
import { useEffect } from 'react';
import { Box, Button, CloseButton, Field, Flex, Heading, NativeSelect, Stack, Table, Text, chakra } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { injectSaga } from '../../../app/sagaInjector';
import { StatusBadge, type BadgeTone } from '../../../components/ui/StatusBadge';
import type { OutboxEmailSummary } from '../../../services/api/staffScreens';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { AdminSection } from '../components/AdminSection';
import { PagedListView } from '../components/PagedListView';
import { formatDateTime } from '../format';
import { adminKey, ADMIN_TEXTS } from '../texts';
import { outboxSaga } from './saga';
import {
  outboxFiltered,
  outboxLimitChosen,
  outboxOpened,
  outboxPageChosen,
  outboxRefreshed,
  previewClosed,
  previewRequested,
  retryRequested,
  selectOutbox,
  type OutboxStatusFilter,
} from './slice';
import { OUTBOX_TEXTS, type OutboxTextKey } from './texts';

injectSaga('outbox', outboxSaga);

const STATUSES = ['pending', 'sent', 'failed', 'kept'] as const;
const TONES: Readonly<Record<OutboxEmailSummary['status'], BadgeTone>> = { pending: 'blue', sent: 'green', failed: 'red', kept: 'gray' };
const statusKey = (status: OutboxEmailSummary['status']): OutboxTextKey => `outbox.status.${status}`;

export default function OutboxPage() {
  const t = useT(OUTBOX_TEXTS);
  const dispatch = useAppDispatch();
  const outbox = useAppSelector(selectOutbox);

  useEffect(() => {
    dispatch(outboxOpened());
  }, [dispatch]);

  const headers = [
    t('outbox.col.id'),
    t('outbox.col.to'),
    t('outbox.col.kind'),
    t('outbox.col.language'),
    t('outbox.col.status'),
    t('outbox.col.attempts'),
    t('outbox.col.error'),
    t('outbox.col.created'),
    t('outbox.col.action'),
  ];
  return (
    <AdminSection testId="admin-outbox" title={t('outbox.title')} data={{ 'data-status': outbox.status, 'data-filter': outbox.filter || undefined }}>
      <Stack gap="5">
        <Field.Root maxW={{ sm: 'xs' }}>
          <Field.Label>{t('outbox.status')}</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              data-testid="admin-outbox-status"
              value={outbox.filter}
              onChange={(event) => dispatch(outboxFiltered(event.currentTarget.value as OutboxStatusFilter))}
            >
              <option value="">{t('outbox.anyStatus')}</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(statusKey(status))}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <PagedListView
          testId="admin-outbox"
          list={outbox}
          actions={{ refreshed: outboxRefreshed, pageChosen: outboxPageChosen, limitChosen: outboxLimitChosen }}
          texts={{ count: t('outbox.count', { count: outbox.paging.count }), caption: t('outbox.title'), empty: t('outbox.empty') }}
          headers={headers}
          between={<Preview />}
        >
          {outbox.rows.map((email) => (
            <OutboxRow key={email.id} email={email} retrying={outbox.retrying.includes(email.id)} previewed={outbox.preview?.id === email.id} />
          ))}
        </PagedListView>
      </Stack>
    </AdminSection>
  );
}

function OutboxRow({ email, retrying, previewed }: { email: OutboxEmailSummary; retrying: boolean; previewed: boolean }) {
  const t = useT(OUTBOX_TEXTS);
  const ta = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const { culture } = useAppSelector(selectLanguage);
  const kindKey = adminKey('admin.emailKind', email.kind);
  return (
    <Table.Row data-testid="admin-outbox-row" data-email-id={email.id} data-status={email.status} aria-selected={previewed || undefined}>
      <Table.Cell fontWeight="semibold">{email.id}</Table.Cell>
      <Table.Cell minW="44" overflowWrap="anywhere" data-testid="admin-outbox-to">
        {email.to}
      </Table.Cell>
      <Table.Cell minW="32" data-testid="admin-outbox-kind">
        {kindKey ? ta(kindKey) : email.kindName}
      </Table.Cell>
      <Table.Cell>{t(email.languageId === 2 ? 'outbox.language.2' : 'outbox.language.1')}</Table.Cell>
      <Table.Cell>
        <StatusBadge tone={TONES[email.status]} testId="admin-outbox-state" data={{ 'data-state': email.status }}>
          {t(statusKey(email.status))}
        </StatusBadge>
      </Table.Cell>
      <Table.Cell textAlign="end" data-testid="admin-outbox-attempts">
        {email.attempts}
      </Table.Cell>
      <Table.Cell minW="40" maxW="xs" fontSize="sm" overflowWrap="anywhere" data-testid="admin-outbox-error">
        {email.lastError ?? '—'}
      </Table.Cell>
      <Table.Cell minW="28">{formatDateTime(email.createdAt, culture)}</Table.Cell>
      <Table.Cell>
        <Flex gap="2">
          <Button
            data-testid="admin-outbox-preview"
            size="xs"
            variant="outline"
            colorPalette="purple"
            aria-label={t('outbox.previewLabel', { id: email.id })}
            onClick={() => dispatch(previewRequested(email.id))}
          >
            {t('outbox.preview')}
          </Button>
          {email.status === 'failed' && (
            <Button
              data-testid="admin-outbox-retry"
              size="xs"
              colorPalette="red"
              loading={retrying}
              aria-label={t('outbox.retryLabel', { id: email.id })}
              onClick={() => dispatch(retryRequested(email.id))}
            >
              {t('outbox.retry')}
            </Button>
          )}
        </Flex>
      </Table.Cell>
    </Table.Row>
  );
}

/** The previewed e-mail above the list: its subject and text body as the server gives them to staff (codes masked). */
function Preview() {
  const t = useT(OUTBOX_TEXTS);
  const dispatch = useAppDispatch();
  const { preview } = useAppSelector(selectOutbox);
  if (!preview) return null;
  return (
    <Box
      data-testid="admin-outbox-preview-panel"
      data-email-id={preview.id}
      data-status={preview.status}
      borderWidth="1px"
      borderRadius="md"
      p="4"
      position="relative"
    >
      <CloseButton
        size="sm"
        position="absolute"
        top="2"
        insetEnd="2"
        aria-label={t('outbox.close')}
        data-testid="admin-outbox-preview-close"
        onClick={() => dispatch(previewClosed())}
      />
      {preview.status === 'failed' && (
        <Text role="alert" color="fg.error">
          {t('outbox.previewFailed')}
        </Text>
      )}
      {preview.email && (
        <Stack gap="3" pe="8">
          <Heading as="h2" size="md" overflowWrap="anywhere" data-testid="admin-outbox-preview-subject">
            {t('outbox.previewTitle', { id: preview.email.id, subject: preview.email.subject })}
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            {preview.email.to} · {t('outbox.previewNote')}
          </Text>
          {/* A long body scrolls in its own box: focusable and named, so a keyboard can scroll it too (WCAG 2.1.1). */}
          <chakra.pre
            data-testid="admin-outbox-preview-text"
            tabIndex={0}
            role="region"
            aria-label={t('outbox.previewText', { id: preview.email.id })}
            whiteSpace="pre-wrap"
            overflowWrap="anywhere"
            fontSize="sm"
            bg="bg.muted"
            p="3"
            borderRadius="md"
            maxH="96"
            overflowY="auto"
          >
            {preview.email.text}
          </chakra.pre>
        </Stack>
      )}
    </Box>
  );
}
