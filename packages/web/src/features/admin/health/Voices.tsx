/**
 * /jve/health, issue 33: the platform-wide incident banner (the circuit breaker held further
 * breaks of a platform) and an account's buyer reports with staff's confirmation.
 */
import { Box, Button, Flex, Text, chakra } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { AccountHealth } from '../../../services/api/staffScreens';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { formatDateTime } from '../format';
import { healthActed } from './slice';
import { HEALTH_TEXTS } from './texts';

/** One banner per open incident (each of its platform's accounts carries it). */
export function IncidentBanners({ rows }: { rows: AccountHealth[] }) {
  const t = useT(HEALTH_TEXTS);
  const seen = new Map<number, { platform: string; incident: NonNullable<AccountHealth['incident']> }>();
  for (const row of rows)
    if (row.incident && !seen.has(row.incident.incidentId)) seen.set(row.incident.incidentId, { platform: row.platformName, incident: row.incident });
  if (seen.size === 0) return null;
  return (
    <>
      {[...seen.values()].map(({ platform, incident }) => (
        <Text
          key={incident.incidentId}
          data-testid="admin-health-incident"
          data-incident-id={incident.incidentId}
          role="alert"
          mb="4"
          p="3"
          borderRadius="md"
          bg="red.subtle"
          fontWeight="semibold"
        >
          {t('health.incident', {
            platform,
            allowed: incident.breaksPerHour,
            held: incident.held,
            accounts: incident.heldAccountIds.map((id) => `#${id}`).join(', '),
          })}
        </Text>
      ))}
    </>
  );
}

/** The account's recent buyer reports; an unconfirmed one can be confirmed while the account is not broken. */
export function Reports({ account }: { account: AccountHealth }) {
  const t = useT(HEALTH_TEXTS);
  const dispatch = useAppDispatch();
  const { culture } = useAppSelector(selectLanguage);
  if (account.reports.length === 0) return null;
  return (
    <Box as="section" aria-label={`${t('health.reports')} · #${account.accountId}`} mt="2">
      <Text fontWeight="semibold" fontSize="sm">
        {t('health.reports')}
      </Text>
      <chakra.ul m="0" pl="4" fontSize="sm">
        {account.reports.map((report) => (
          <chakra.li key={report.reportId} data-testid="admin-health-report" data-report-id={report.reportId} data-confirmed={report.confirmedAt !== null}>
            <Flex gap="2" align="center" wrap="wrap">
              <Text overflowWrap="anywhere">
                {t('health.report', {
                  id: report.subscriptionId,
                  user: report.userId,
                  kind: t(`health.problem.${report.kind}`),
                  at: formatDateTime(report.reportedAt, culture),
                })}
                {report.note ? ` — “${report.note}”` : ''}
                {report.confirmedAt ? ` · ${t('health.report.confirmed')}` : ''}
              </Text>
              {report.confirmedAt === null && account.state !== 'broken' ? (
                <Button
                  data-testid="admin-health-confirm-report"
                  size="xs"
                  colorPalette="red"
                  variant="outline"
                  onClick={() => dispatch(healthActed({ kind: 'confirmReport', accountId: account.accountId, reportId: report.reportId }))}
                >
                  {t('health.report.confirm')}
                </Button>
              ) : null}
            </Flex>
          </chakra.li>
        ))}
      </chakra.ul>
    </Box>
  );
}
