/**
 * /jve/catalog: every platform, shown or hidden, with its logo on its colour, its options and
 * orders, an Edit link and Show/Hide; New platform opens the empty editor. Rows are cards that
 * wrap, so the list fits a 390 px phone.
 */
import { pagePath } from '@subshare/core/pages';
import { useEffect, useState } from 'react';
import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../../app/hooks';
import { ButtonLink, RouterLink } from '../../../../components/ui/links';
import { StatusBadge } from '../../../../components/ui/StatusBadge';
import { selectLanguageId } from '../../../language/selectors';
import { useT } from '../../../language/useT';
import { AdminSection } from '../../components/AdminSection';
import { ConfirmDialog, type ConfirmRequest } from '../../components/ConfirmDialog';
import { catalogListClosed, catalogListOpened, enabledToggleRequested, selectCatalogList } from '../slice';
import { CATALOG_TEXTS, type CatalogTextKey } from '../texts';

export default function CatalogListPage() {
  const t = useT(CATALOG_TEXTS);
  const dispatch = useAppDispatch();
  const list = useAppSelector(selectCatalogList);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);

  useEffect(() => {
    dispatch(catalogListOpened());
    return () => {
      dispatch(catalogListClosed());
    };
  }, [dispatch]);

  return (
    <AdminSection
      testId="admin-catalog"
      title={t('catalog.title')}
      data={{ 'data-status': list.status }}
      actions={
        <ButtonLink data-testid="admin-catalog-new" to={pagePath.adminNewPlatform()} colorPalette="purple">
          {t('catalog.new')}
        </ButtonLink>
      }
    >
      {list.status === 'failed' && (
        <Flex role="alert" gap="3" align="center" wrap="wrap" p="3" borderRadius="md" bg="bg.error" color="fg.error" mb="4">
          <Text>{t('catalog.loadFailed')}</Text>
          {list.retryable && (
            <Button size="sm" variant="outline" onClick={() => dispatch(catalogListOpened())}>
              {t('catalog.retry')}
            </Button>
          )}
        </Flex>
      )}
      {list.status === 'loaded' && list.rows.length === 0 && <Text data-testid="admin-catalog-empty">{t('catalog.empty')}</Text>}
      <Stack gap="3">
        {list.rows.map((row) => (
          <CatalogRow key={row.id} row={row} toggling={list.toggling.includes(row.id)} onConfirm={setConfirm} />
        ))}
      </Stack>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </AdminSection>
  );
}

/** One platform: its logo on its colour, name (the editor's link), options and orders, state, Edit and Show/Hide (asked first). */
function CatalogRow({
  row,
  toggling,
  onConfirm,
}: {
  row: ReturnType<typeof selectCatalogList>['rows'][number];
  toggling: boolean;
  onConfirm: (request: ConfirmRequest) => void;
}) {
  const t = useT(CATALOG_TEXTS);
  const dispatch = useAppDispatch();
  const languageId = useAppSelector(selectLanguageId);
  const name = languageId === 2 ? row.name.ko || row.name.en : row.name.en;
  return (
    <Flex
      data-testid="admin-catalog-row"
      data-platform-id={row.id}
      data-enabled={row.isEnabled}
      gap="3"
      align="center"
      wrap="wrap"
      borderWidth="1px"
      borderRadius="md"
      p="3"
    >
      <Box bg={row.colorOne} borderRadius="md" px="2" py="1" flexShrink={0}>
        <img src={row.logoBase} alt="" width={96} height={32} style={{ width: 96, height: 32, objectFit: 'contain' }} />
      </Box>
      <Stack gap="0" flex="1" minW="40">
        <RouterLink data-testid="admin-catalog-name" to={pagePath.adminPlatform(row.id)} fontWeight="semibold">
          {name}
        </RouterLink>
        <Text fontSize="sm" color="fg.muted">
          {t(`catalog.category.${row.category}` as CatalogTextKey)} · {t('catalog.options', { durations: row.enabledDurations, types: row.enabledTypes })} ·{' '}
          {t('catalog.orders', { count: row.ordersCount })}
        </Text>
      </Stack>
      <StatusBadge tone={row.isEnabled ? 'green' : 'gray'} testId="admin-catalog-state" data={{ 'data-enabled': String(row.isEnabled) }}>
        {t(row.isEnabled ? 'catalog.enabled' : 'catalog.hidden')}
      </StatusBadge>
      {/* Shown with no account behind it, a platform takes payments that wait for staff. */}
      {row.activeAccounts === 0 && (
        <StatusBadge tone={row.isEnabled ? 'red' : 'gray'} testId="admin-catalog-no-accounts">
          {t('catalog.noAccounts')}
        </StatusBadge>
      )}
      <Flex gap="2">
        <ButtonLink data-testid="admin-catalog-edit" to={pagePath.adminPlatform(row.id)} size="sm" variant="outline">
          {t('catalog.edit')}
        </ButtonLink>
        <Button
          data-testid="admin-catalog-toggle"
          size="sm"
          variant="outline"
          loading={toggling}
          aria-label={`${t(row.isEnabled ? 'catalog.hide' : 'catalog.show')}: ${name}`}
          onClick={() =>
            onConfirm({
              title: t(row.isEnabled ? 'catalog.confirmHideTitle' : 'catalog.confirmShowTitle', { name }),
              text: t(row.isEnabled ? 'catalog.confirmHideText' : row.activeAccounts === 0 ? 'catalog.confirmShowNoAccounts' : 'catalog.confirmShowText', {
                name,
              }),
              confirmLabel: t(row.isEnabled ? 'catalog.hide' : 'catalog.show'),
              danger: row.isEnabled,
              onConfirm: () => dispatch(enabledToggleRequested({ id: row.id, isEnabled: !row.isEnabled, version: row.version, name })),
            })
          }
        >
          {t(row.isEnabled ? 'catalog.hide' : 'catalog.show')}
        </Button>
      </Flex>
    </Flex>
  );
}
