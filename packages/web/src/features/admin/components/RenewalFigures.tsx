/**
 * The dashboard's automatic renewals (issue 28): the revenue the renewals of the next DASHBOARD_DAYS are
 * expected to bring, per currency, and the renewals that failed in the last DASHBOARD_DAYS (how many, and
 * the latest, each linked to its buyer's page, where the subscription shows its renewal), and a
 * warning when no renewal can be charged because reminders are not delivered (no SMTP_URL).
 */
import { pagePath } from '@subshare/core/pages';
import { Box, Stack, Text, chakra } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { RouterLink } from '../../../components/ui/links';
import type { Dashboard } from '../../../services/api/admin';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { formatDateTime, formatMoney } from '../format';
import { adminKey, ADMIN_TEXTS } from '../texts';

type Renewals = Dashboard['renewals'];

export function RenewalFigures({ renewals }: { renewals: Renewals | undefined }) {
  const t = useT(ADMIN_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const expected = renewals?.expected ?? [];
  const failed = renewals?.latestFailed ?? [];
  const failedCount = renewals?.failedCount ?? 0;
  return (
    <Stack gap="4">
      {renewals?.remindersUndelivered && (
        <Text data-testid="admin-renewals-undelivered" role="alert" color="fg.error" fontWeight="semibold">
          {t('admin.renewalsUndelivered')}
        </Text>
      )}
      <Box>
        <Text fontWeight="semibold">{t('admin.renewalsExpected')}</Text>
        {expected.length === 0 ? (
          <Text data-testid="admin-renewals-expected-none" color="fg.muted">
            {t('admin.renewalsExpectedNone')}
          </Text>
        ) : (
          <chakra.ul m="0" p="0" listStyleType="none" display="flex" gap="4" flexWrap="wrap" fontSize="xl" fontWeight="bold">
            {expected.map((entry) => (
              <chakra.li key={entry.currencyCode} data-testid="admin-renewals-expected" data-currency={entry.currencyCode}>
                {formatMoney(entry.amount, entry.currencyCode, culture)}
              </chakra.li>
            ))}
          </chakra.ul>
        )}
        <Text fontSize="sm" color="fg.muted">
          {t('admin.renewalsExpectedNote')}
        </Text>
      </Box>
      <Box>
        <Text data-testid="admin-renewals-failed-count" data-count={failedCount} fontWeight="semibold" color={failedCount > 0 ? 'fg.error' : undefined}>
          {failedCount === 0 ? t('admin.renewalsFailedNone') : t('admin.renewalsFailed', { count: failedCount })}
        </Text>
        {failed.length > 0 && (
          <chakra.ul m="0" mt="2" p="0" listStyleType="none" display="flex" flexDirection="column" gap="2">
            {failed.map((entry) => {
              const statusKey = entry.status ? adminKey('admin.renewalStatus', entry.status) : null;
              const amount = entry.amount !== null && entry.currencyCode ? formatMoney(entry.amount, entry.currencyCode, culture) : '—';
              return (
                <chakra.li
                  key={entry.subscriptionId}
                  data-testid="admin-renewals-failed"
                  data-subscription-id={entry.subscriptionId}
                  display="flex"
                  gap="3"
                  flexWrap="wrap"
                  fontSize="sm"
                >
                  <RouterLink to={pagePath.adminUser(entry.userId)} colorPalette="purple" fontWeight="semibold">
                    {t('admin.renewalsFailedEntry', { id: entry.subscriptionId })}
                  </RouterLink>
                  <chakra.span>
                    {t('admin.renewalsFailedDetail', { status: statusKey ? t(statusKey) : (entry.status ?? '—'), attempts: entry.attempts, amount })}
                  </chakra.span>
                  {entry.declineCode && <chakra.span color="fg.muted">{t('admin.renewalsDeclineCode', { code: entry.declineCode })}</chakra.span>}
                  {entry.nextChargeAt && entry.status === 'retrying' && (
                    <chakra.time dateTime={entry.nextChargeAt} color="fg.muted">
                      {formatDateTime(entry.nextChargeAt, culture)}
                    </chakra.time>
                  )}
                </chakra.li>
              );
            })}
          </chakra.ul>
        )}
      </Box>
    </Stack>
  );
}
