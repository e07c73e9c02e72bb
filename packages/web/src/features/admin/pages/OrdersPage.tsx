/**
 * /jve/orders/{sid} (spec section 2, "Admin area"): the orders of a state, paged (spec section
 * 4), with a search by order id that replaces the list, Refresh, Previous, Next, the page-size
 * toggle and the count; Activate on waiting orders (state 6) removes the order once done.
 * Beyond the spec: the list as CSV, fetched with the login's token; every order's state as a
 * badge (Refunded stands out); Refund on paid orders (states 2 and 6, admins only), which opens
 * the refund dialog and, once refunded, leaves the row in place with its new state.
 */
import { pagePath } from '@subshare/core/pages';
import { useEffect, useMemo, type ReactNode } from 'react';
import { Button, Flex, Stack, Table, Text, chakra } from '@chakra-ui/react';
import { useParams, useSearchParams } from 'react-router-dom';
import * as yup from 'yup';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { RouterLink } from '../../../components/ui/links';
import type { AdminOrder } from '../../../services/api/admin';
import { ROLES } from '../../auth/session';
import { selectUser } from '../../auth/selectors';
import { selectLanguage } from '../../language/selectors';
import { useValidationMessages } from '../../language/useValidationMessages';
import { AdminSection } from '../components/AdminSection';
import { ActivateButton, RefundButton } from '../components/OrderButtons';
import { OrderStateBadge } from '../components/OrderStateBadge';
import { PagedListView } from '../components/PagedListView';
import { PlatformName } from '../components/PlatformName';
import { RefundDialog } from '../components/RefundDialog';
import { SearchForm } from '../components/SearchForm';
import { formatDateTime, formatOrderTotal, idOf, isRefundableState, WAITING_STATE } from '../format';
import { rowNumber } from '../paging';
import { selectOrders } from '../selectors';
import {
  orderActivationRequested,
  ordersClosed,
  ordersExportRequested,
  ordersLimitChosen,
  ordersOpened,
  ordersPageChosen,
  ordersRefreshed,
  ordersSearched,
} from '../slice';
import { adminKey, ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

export default function OrdersPage() {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const { sid } = useParams();
  // Only an order state (0 to 6) names a list: /jve/orders/7 or /jve/orders/abc says there is none.
  const orderState = sid !== undefined && /^\d{1,2}$/.test(sid) && adminKey('admin.state', Number(sid)) !== null ? Number(sid) : null;
  const orders = useAppSelector(selectOrders);
  // Refunds are admins' (the server refuses moderators too).
  const isAdmin = (useAppSelector(selectUser)?.role ?? ROLES.user) >= ROLES.admin;
  // `?search=<id>` (the dashboard's links to waiting orders) opens with that order searched.
  const [params] = useSearchParams();
  const searchedId = idOf(params.get('search') ?? undefined);

  useEffect(() => {
    if (orderState === null) return;
    dispatch(ordersOpened(orderState));
    if (searchedId !== null) dispatch(ordersSearched(searchedId));
    return () => {
      dispatch(ordersClosed());
    };
  }, [dispatch, orderState, searchedId]);

  const titleKey = orderState === null ? null : adminKey('admin.ordersTitle', orderState);
  const title = titleKey ? t(titleKey) : t('admin.ordersTitleOther', { state: sid ?? '' });
  const headers = [
    t('admin.col.number'),
    t('admin.col.id'),
    t('admin.col.platform'),
    t('admin.col.type'),
    t('admin.col.duration'),
    t('admin.col.totalEur'),
    t('admin.col.user'),
    t('admin.col.payment'),
    t('admin.col.date'),
    t('admin.col.action'),
  ];

  if (orderState === null) return <AdminSection testId="admin-orders-unknown" title={t('admin.noSuchList', { sid: sid ?? '' })} />;
  return (
    <AdminSection
      testId="admin-orders"
      title={title}
      data={{ 'data-state': orderState ?? undefined, 'data-status': orders.status, 'data-search': orders.search ?? undefined }}
      actions={
        orderState !== null && (
          <Button data-testid="admin-orders-export" size="sm" variant="outline" onClick={() => dispatch(ordersExportRequested(orderState))}>
            {t('admin.exportCsv')}
          </Button>
        )
      }
    >
      <Stack gap="5">
        <OrderSearch search={orders.search} />
        <PagedListView
          testId="admin-orders"
          list={orders}
          actions={{ refreshed: ordersRefreshed, pageChosen: ordersPageChosen, limitChosen: ordersLimitChosen }}
          sizeControl="toggle"
          texts={{ count: t('admin.ordersCount', { count: orders.paging.count }), caption: title, empty: t('admin.noOrders') }}
          headers={headers}
        >
          {orders.rows.map((order, index) => (
            <OrderRow
              key={order.id}
              order={order}
              number={orders.search !== null ? 1 : rowNumber(orders.paging, index)}
              canActivate={orderState === WAITING_STATE && order.state === WAITING_STATE}
              activating={orders.activating.includes(order.id)}
              canRefund={isAdmin && isRefundableState(order.state)}
            />
          ))}
        </PagedListView>
      </Stack>
      <RefundDialog />
    </AdminSection>
  );
}

/** The search by order id, and while a search is shown, the way back to the whole list. */
function OrderSearch({ search }: { search: ReturnType<typeof selectOrders>['search'] }) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const searchSchema = useMemo(
    () =>
      yup.object({
        query: yup
          .string()
          .trim()
          .required(messages.required)
          .matches(/^\d{1,15}$/, t('admin.orderIdInvalid')),
      }),
    [messages, t],
  );
  return (
    <>
      <SearchForm
        testId="admin-orders-search"
        label={t('admin.orderSearch')}
        type="text"
        inputMode="numeric"
        schema={searchSchema}
        onSearch={(query) => {
          const id = idOf(query);
          if (id !== null) dispatch(ordersSearched(id));
        }}
      />
      {search !== null && (
        <Flex align="center" gap="3" wrap="wrap">
          <Text data-testid="admin-orders-search-shown" color="fg.muted">
            {t('admin.searchShown', { query: search })}
          </Text>
          <Button data-testid="admin-orders-show-all" size="xs" variant="ghost" onClick={() => dispatch(ordersRefreshed())}>
            {t('admin.showAll')}
          </Button>
        </Flex>
      )}
    </>
  );
}

interface OrderRowProps {
  order: AdminOrder;
  number: number;
  canActivate: boolean;
  activating: boolean;
  canRefund: boolean;
}

function OrderRow({ order, number, canActivate, activating, canRefund }: OrderRowProps) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const { culture } = useAppSelector(selectLanguage);
  const paymentKey = order.paymentMethod === null ? null : adminKey('admin.payment', order.paymentMethod);
  const lines = (pick: (item: AdminOrder['items'][number]) => ReactNode) =>
    order.items.map((item, index) => (
      <chakra.span key={index} display="block">
        {pick(item)}
      </chakra.span>
    ));

  return (
    <Table.Row data-testid="admin-order-row" data-order-id={order.id} data-state={order.state}>
      <Table.Cell data-testid="admin-order-number">{number}</Table.Cell>
      <Table.Cell data-testid="admin-order-id" fontWeight="semibold">
        <chakra.span display="block">{order.id}</chakra.span>
        <OrderStateBadge state={order.state} />
      </Table.Cell>
      <Table.Cell data-testid="admin-order-platform">
        {lines((item) => (
          <PlatformName name={item.platformName} color={item.platformColorOne} />
        ))}
      </Table.Cell>
      <Table.Cell data-testid="admin-order-type">{lines((item) => item.typeName)}</Table.Cell>
      <Table.Cell data-testid="admin-order-duration">{lines((item) => item.durationName)}</Table.Cell>
      <Table.Cell data-testid="admin-order-total" textAlign="end" whiteSpace="nowrap">
        {formatOrderTotal(order, culture)}
      </Table.Cell>
      <Table.Cell data-testid="admin-order-user" minW="36">
        <RouterLink to={pagePath.adminUser(order.userId)} data-testid="admin-order-user-link" colorPalette="purple" wordBreak="break-all">
          {order.email || `#${order.userId}`}
        </RouterLink>
      </Table.Cell>
      <Table.Cell data-testid="admin-order-payment" whiteSpace="nowrap">
        {paymentKey ? t(paymentKey) : '—'}
      </Table.Cell>
      <Table.Cell data-testid="admin-order-date" minW="28">
        {formatDateTime(order.createdDate, culture)}
      </Table.Cell>
      <Table.Cell>
        <Flex gap="2" wrap="wrap">
          {canActivate && (
            <ActivateButton
              orderId={order.id}
              testId="admin-order-activate"
              size="xs"
              activating={activating}
              onActivate={() => dispatch(orderActivationRequested(order.id))}
            />
          )}
          {canRefund && <RefundButton orderId={order.id} testId="admin-order-refund" size="xs" />}
        </Flex>
      </Table.Cell>
    </Table.Row>
  );
}
