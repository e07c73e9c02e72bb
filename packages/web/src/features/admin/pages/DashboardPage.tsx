/**
 * /jve (beyond the spec): the figures of GET /api/admin/dashboard: revenue of the last DASHBOARD_DAYS (net of refunds)
 * as a bar chart, orders by state, slot occupancy per platform and the paid orders waiting
 * longer than the activation promise (ACTIVATION_HOURS), each linked to its order, and the automatic renewals (expected revenue of
 * the next DASHBOARD_DAYS, failed renewals). A server without the call (404) gets a note.
 */
import { pagePath } from '@subshare/core/pages';
import { useEffect, type ReactNode } from 'react';
import { Box, Grid, Heading, HStack, Spinner, Stack, Text, chakra } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { RouterLink } from '../../../components/ui/links';
import type { Dashboard } from '../../../services/api/admin';
import { selectLanguage } from '../../language/selectors';
import { AdminSection } from '../components/AdminSection';
import { RevenueChart } from '../components/RevenueChart';
import { formatEur, formatMoney } from '../format';
import { selectDashboard } from '../selectors';
import { dashboardOpened } from '../slice';
import { MoneyEvents } from '../components/MoneyEvents';
import { RenewalFigures } from '../components/RenewalFigures';
import { adminKey, ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

export default function DashboardPage() {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const { status, data } = useAppSelector(selectDashboard);

  useEffect(() => {
    dispatch(dashboardOpened());
  }, [dispatch]);

  return (
    <AdminSection testId="admin-home" title={t('admin.dashboardTitle')} data={{ 'data-status': status }}>
      {status === 'loaded' && data ? (
        <Figures data={data} />
      ) : status === 'unavailable' || status === 'failed' ? (
        <Text data-testid="admin-dashboard-unavailable" p="4" borderRadius="md" bg="bg.muted" color="fg.muted">
          {status === 'unavailable' ? t('admin.dashboardUnavailable') : t('admin.dashboardFailed')}
        </Text>
      ) : (
        <HStack role="status" gap="3" color="fg.muted">
          <Spinner size="sm" />
          <Text>{t('admin.loading')}</Text>
        </HStack>
      )}
    </AdminSection>
  );
}

function Card({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <Box as="section" aria-labelledby={`${testId}-heading`} data-testid={testId} borderWidth="1px" borderRadius="lg" p="5" minW="0">
      <Heading as="h2" id={`${testId}-heading`} size="md" mb="4">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

function Figures({ data }: { data: Dashboard }) {
  const t = useT(ADMIN_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const revenue = Array.isArray(data.revenueEur) ? data.revenueEur : [];
  const total = revenue.reduce((sum, entry) => sum + (Number(entry.totalEur) || 0), 0);
  const waitingMoney = Array.isArray(data.waitingMoneyEvents) ? data.waitingMoneyEvents : [];

  return (
    // minmax(0, …): a column is as wide as the page, never as wide as its widest content (the chart).
    <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }} gap="5">
      <Box gridColumn={{ lg: 'span 2' }}>
        <Card testId="admin-revenue" title={t('admin.revenue')}>
          <Stack gap="3">
            <Text data-testid="admin-revenue-total" fontWeight="semibold">
              {t('admin.revenueTotal', { total: formatEur(total, culture) })}
            </Text>
            <RevenueChart days={revenue} culture={culture} />
          </Stack>
        </Card>
      </Box>
      <OrdersByState data={data} />
      <SlotOccupancy data={data} />
      <AccountHealth data={data} />
      <Box gridColumn={{ lg: 'span 2' }}>
        <Card testId="admin-renewals" title={t('admin.renewals')}>
          <RenewalFigures renewals={data.renewals} />
        </Card>
      </Box>
      <Box gridColumn={{ lg: 'span 2' }}>
        <WaitingOrders data={data} />
      </Box>
      <DoublePayments data={data} />
      <OutstandingCredit data={data} />
      <DiscountsGranted data={data} />
      <Box gridColumn={{ lg: 'span 2' }}>
        <Card testId="admin-waiting-money" title={t('admin.waitingMoney')}>
          {waitingMoney.length === 0 ? (
            <Text data-testid="admin-waiting-money-none" color="fg.muted">
              {t('admin.waitingMoneyNone')}
            </Text>
          ) : (
            <MoneyEvents events={waitingMoney} testId="admin-waiting-money-events" />
          )}
        </Card>
      </Box>
    </Grid>
  );
}

/** Orders by state, each with its count. */
function OrdersByState({ data }: { data: Dashboard }) {
  const t = useT(ADMIN_TEXTS);
  const states = Object.entries(data.ordersByState ?? {}).sort(([a], [b]) => Number(a) - Number(b));
  return (
    <Card testId="admin-orders-by-state" title={t('admin.ordersByState')}>
      <chakra.dl m="0" display="grid" gridTemplateColumns="minmax(0, 1fr) auto" rowGap="2" columnGap="4">
        {states.map(([state, count]) => {
          const key = adminKey('admin.state', state);
          return (
            <Box key={state} display="contents" data-testid="admin-state-count" data-state={state}>
              <chakra.dt color="fg.muted">{key ? t(key) : state}</chakra.dt>
              <chakra.dd m="0" fontWeight="semibold" textAlign="end">
                {count}
              </chakra.dd>
            </Box>
          );
        })}
      </chakra.dl>
    </Card>
  );
}

/** Each platform's slots: used, free, broken, and a bar coloured by how full it is. */
function SlotOccupancy({ data }: { data: Dashboard }) {
  const t = useT(ADMIN_TEXTS);
  const occupancy = Array.isArray(data.slotOccupancy) ? data.slotOccupancy : [];
  return (
    <Card testId="admin-slot-occupancy" title={t('admin.slotOccupancy')}>
      {occupancy.length === 0 ? (
        <Text color="fg.muted">{t('admin.noPlatforms')}</Text>
      ) : (
        <chakra.ul m="0" p="0" listStyleType="none" display="flex" flexDirection="column" gap="3">
          {occupancy.map((platform) => {
            const share = platform.slots > 0 ? Math.min(1, platform.used / platform.slots) : 0;
            return (
              <chakra.li key={platform.platformId} data-testid="admin-occupancy" data-platform-id={platform.platformId}>
                <HStack justify="space-between" fontSize="sm" mb="1" gap="3">
                  <chakra.span overflowWrap="anywhere">{platform.name}</chakra.span>
                  <chakra.span color="fg.muted" whiteSpace="nowrap">
                    {t('admin.slotsUsed', { used: platform.used, slots: platform.slots })}
                    {' · '}
                    <chakra.span data-testid="admin-occupancy-free">{t('admin.slotsFree', { free: platform.free })}</chakra.span>
                    {platform.broken > 0 && (
                      <chakra.span data-testid="admin-occupancy-broken" color="red.fg">
                        {' · '}
                        {t('admin.slotsBroken', { broken: platform.broken })}
                      </chakra.span>
                    )}
                  </chakra.span>
                </HStack>
                <Box h="2" borderRadius="full" bg="bg.muted" overflow="hidden" aria-hidden="true">
                  <Box h="full" w={`${Math.round(share * 100)}%`} bg={share >= 1 ? 'red.500' : share >= 0.8 ? 'orange.400' : 'green.500'} />
                </Box>
              </chakra.li>
            );
          })}
        </chakra.ul>
      )}
    </Card>
  );
}

/** How many accounts are broken or need attention, and the way to /jve/health. */
function AccountHealth({ data }: { data: Dashboard }) {
  const t = useT(ADMIN_TEXTS);
  return (
    <Card testId="admin-account-health" title={t('admin.accountHealth')}>
      <chakra.dl m="0" display="grid" gridTemplateColumns="minmax(0, 1fr) auto" rowGap="2" columnGap="4">
        {(['broken', 'attention'] as const).map((state) => (
          <Box key={state} display="contents" data-testid="admin-health-count" data-state={state}>
            <chakra.dt color="fg.muted">{t(state === 'broken' ? 'admin.accountsBroken' : 'admin.accountsAttention')}</chakra.dt>
            <chakra.dd m="0" fontWeight="semibold" textAlign="end" color={state === 'broken' && (data.accountHealth?.broken ?? 0) > 0 ? 'fg.error' : undefined}>
              {data.accountHealth?.[state] ?? 0}
            </chakra.dd>
          </Box>
        ))}
      </chakra.dl>
      <RouterLink to={pagePath.adminHealth()} colorPalette="purple" fontSize="sm" mt="3" display="inline-block">
        {t('admin.accountHealthOpen')}
      </RouterLink>
    </Card>
  );
}

/** Paid orders still waiting for their activation past the promise. */
function WaitingOrders({ data }: { data: Dashboard }) {
  const t = useT(ADMIN_TEXTS);
  const waiting = Array.isArray(data.waitingPast24h) ? data.waitingPast24h : [];
  return (
    <Card testId="admin-waiting" title={t('admin.waiting')}>
      {waiting.length === 0 ? (
        <Text data-testid="admin-waiting-none" color="fg.muted">
          {t('admin.waitingNone')}
        </Text>
      ) : (
        <chakra.ul m="0" p="0" listStyleType="none" display="flex" flexDirection="column" gap="2">
          {waiting.map((entry) => (
            <chakra.li key={entry.orderId} data-testid="admin-waiting-order" data-order-id={entry.orderId} display="flex" gap="3" flexWrap="wrap">
              <RouterLink to={pagePath.adminOrders(6, entry.orderId)} colorPalette="purple" fontWeight="semibold">
                {t('admin.waitingOrder', { id: entry.orderId })}
              </RouterLink>
              <chakra.span color="fg.muted">{t('admin.waitingHours', { hours: Math.floor(entry.hours) })}</chakra.span>
            </chakra.li>
          ))}
        </chakra.ul>
      )}
    </Card>
  );
}

/** Double payments refunded (count, amounts) and those still open. */
function DoublePayments({ data }: { data: Dashboard }) {
  const t = useT(ADMIN_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  return (
    <Card testId="admin-double-payments" title={t('admin.doublePayments')}>
      <Text data-testid="admin-double-payments-refunded" data-count={data.doublePayments?.refunded ?? 0} fontSize="2xl" fontWeight="bold">
        {data.doublePayments?.refunded ?? 0}
      </Text>
      <Text fontSize="sm" color="fg.muted">
        {t('admin.doublePaymentsRefunded')}
        {(data.doublePayments?.refundedAmounts ?? []).map((entry) => ` · ${formatMoney(entry.amount, entry.currencyCode, culture)}`).join('')}
      </Text>
      {((data.doublePayments?.waiting ?? 0) > 0 || (data.doublePayments?.failed ?? 0) > 0) && (
        <Text data-testid="admin-double-payments-open" fontSize="sm" color="fg.error" mt="2">
          {t('admin.doublePaymentsOpen', { waiting: data.doublePayments?.waiting ?? 0, failed: data.doublePayments?.failed ?? 0 })}
        </Text>
      )}
    </Card>
  );
}

/** What the shop owes its buyers in credit, per currency (issue 37). */
/** Issue 37: per promotion code (and the welcome discount), the paid orders that got it and what it cost, per currency. */
function DiscountsGranted({ data }: { data: Dashboard }) {
  const t = useT(ADMIN_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  return (
    <Card testId="admin-discounts-granted" title={t('admin.discountsGranted')}>
      <chakra.dl m="0" display="grid" gridTemplateColumns="minmax(0, 1fr) auto" rowGap="2" columnGap="4">
        {(data.discountsGranted ?? []).map((line) => (
          <Box key={line.code ?? line.source} display="contents" data-testid="admin-discount-line" data-code={line.code ?? ''} data-source={line.source}>
            <chakra.dt overflowWrap="anywhere">
              {line.code ?? t('admin.discountsGrantedWelcome')}
              <chakra.span display="block" fontSize="sm" color="fg.muted" data-testid="admin-discount-orders">
                {t('admin.discountsGrantedOrders', { count: line.paidOrders })}
              </chakra.span>
            </chakra.dt>
            <chakra.dd m="0" fontWeight="semibold" textAlign="end" data-testid="admin-discount-granted">
              {line.granted.length === 0
                ? t('admin.discountsGrantedNone')
                : line.granted.map((entry) => formatMoney(entry.amount, entry.currencyCode, culture)).join(' · ')}
            </chakra.dd>
          </Box>
        ))}
      </chakra.dl>
      <Text fontSize="sm" color="fg.muted">
        {t('admin.discountsGrantedNote')}
      </Text>
    </Card>
  );
}

function OutstandingCredit({ data }: { data: Dashboard }) {
  const t = useT(ADMIN_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const owed = (data.outstandingCredit ?? []).filter((entry) => entry.amount !== 0);
  return (
    <Card testId="admin-outstanding-credit" title={t('admin.outstandingCredit')}>
      {owed.length === 0 ? (
        <Text data-testid="admin-outstanding-credit-none" color="fg.muted">
          {t('admin.outstandingCreditNone')}
        </Text>
      ) : (
        <Text data-testid="admin-outstanding-credit-amounts" fontSize="2xl" fontWeight="bold">
          {owed.map((entry) => formatMoney(entry.amount, entry.currencyCode, culture)).join(' · ')}
        </Text>
      )}
      <Text fontSize="sm" color="fg.muted">
        {t('admin.outstandingCreditNote')}
      </Text>
    </Card>
  );
}
