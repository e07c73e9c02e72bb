/**
 * /jve/user/{id} (spec section 2, "Admin area"): a user's nickname and e-mail and their
 * SUBSCRIPTIONS, asked in language 1 (spec section 7). Incomplete: platform image, Order ID,
 * Type, Duration; the invitation e-mail or, when it is missing, the hint the buyer was given;
 * 'PAID, BUT NOT COMPLETED!' when no invitation is needed or its e-mail is there; Activate
 * (beyond the spec). Active: platform image, Subscribe ID, Order ID, Username (the invitation
 * e-mail, else the login e-mail and its Password), Slot (more than one slot only: ALL for 0),
 * Start and End Time (medium date), Replaced From, and Replace (then the panel reloads).
 * Beyond the spec: Refund on either kind of item (admins only), through the refund dialog; once
 * refunded the panel reloads (the server has ended the subscription); refunded orders in a third
 * list with a Refunded badge, when there are any. Each active subscription's automatic renewal
 * (issue 28): off, on with its card, or by payment link; this period's charge; the next charge.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Box, Button, Flex, Heading, HStack, Spinner, Stack, Text, chakra } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { PanelItem } from '../../../services/api/panel';
import { ROLES } from '../../auth/session';
import { selectUser } from '../../auth/selectors';
import { selectLanguage } from '../../language/selectors';
import { AdminItem, ItemField } from '../components/AdminItem';
import { AdminSection } from '../components/AdminSection';
import { ActivateButton, RefundButton } from '../components/OrderButtons';
import { OrderStateBadge } from '../components/OrderStateBadge';
import { RefundDialog } from '../components/RefundDialog';
import { RenewalState } from '../components/RenewalState';
import { formatMediumDate, idOf, REFUNDED_STATE } from '../format';
import { selectAdminUser } from '../selectors';
import { adminUserClosed, adminUserOpened, adminUserRequested, replaceRequested, userOrderActivationRequested, type UserPageState } from '../slice';
import { ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

export default function UserPage() {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const { id } = useParams();
  const userId = idOf(id);
  const page = useAppSelector(selectAdminUser);

  useEffect(() => {
    dispatch(adminUserOpened(userId));
    return () => {
      dispatch(adminUserClosed());
    };
  }, [dispatch, userId]);

  return (
    <AdminSection
      testId="admin-user"
      title={t('admin.userTitle', { id: id ?? '' })}
      data={{ 'data-status': page.status === 'idle' ? 'loading' : page.status, 'data-user-id': userId ?? undefined }}
    >
      <UserBody page={page} />
      <RefundDialog />
    </AdminSection>
  );
}

function UserBody({ page }: { page: UserPageState }) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  // Refunds are admins' (the server refuses moderators too).
  const isAdmin = (useAppSelector(selectUser)?.role ?? ROLES.user) >= ROLES.admin;
  if (page.status === 'notFound') {
    return (
      <Box data-testid="admin-user-not-found" role="alert" p="4" borderRadius="md" bg="bg.muted">
        {t('admin.userNotFound')}
      </Box>
    );
  }
  if (page.status === 'failed' && !page.panel) {
    return (
      <Stack data-testid="admin-user-failed" role="alert" gap="3" align="flex-start" p="4" borderRadius="md" bg="bg.error">
        <Text>{t('admin.userFailed')}</Text>
        {page.retryable && (
          <Button size="sm" onClick={() => dispatch(adminUserRequested())}>
            {t('admin.retry')}
          </Button>
        )}
      </Stack>
    );
  }
  if (!page.panel) {
    return (
      <HStack role="status" gap="3" py="6" color="fg.muted">
        <Spinner size="sm" />
        <Text>{t('admin.loading')}</Text>
      </HStack>
    );
  }
  const { user, subscribers, subscribersNotCompleted, subscribersRefunded } = page.panel;
  return (
    <Stack gap="6">
      <chakra.dl m="0" display="grid" gridTemplateColumns={{ base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }} gap="4" p="4" borderWidth="1px" borderRadius="lg">
        <ItemField label={t('admin.nickname')} testId="admin-user-nickname">
          {user.name || t('admin.notSet')}
        </ItemField>
        <ItemField label={t('admin.email')} testId="admin-user-email">
          {user.email}
        </ItemField>
      </chakra.dl>
      <Box as="section" aria-labelledby="admin-user-subscriptions">
        <Heading as="h2" id="admin-user-subscriptions" size="xl" mb="4" letterSpacing="wide">
          {t('admin.subscriptionsHeading')}
        </Heading>
        <Stack gap="6">
          <ItemList testId="admin-user-incomplete" title={t('admin.incomplete')} empty={t('admin.incompleteEmpty')} count={subscribersNotCompleted.length}>
            {subscribersNotCompleted.map((item) => (
              <IncompleteItem key={`${item.orderId}-${item.platformId}`} item={item} activating={page.activating.includes(item.orderId)} canRefund={isAdmin} />
            ))}
          </ItemList>
          <ItemList testId="admin-user-active" title={t('admin.active')} empty={t('admin.activeEmpty')} count={subscribers.length}>
            {subscribers.map((item) => (
              <ActiveItem
                key={item.subscribeId ?? `order-${item.orderId}`}
                item={item}
                replacing={item.subscribeId !== null && page.replacing.includes(item.subscribeId)}
                canRefund={isAdmin}
              />
            ))}
          </ItemList>
          {subscribersRefunded.length > 0 && (
            <ItemList testId="admin-user-refunded" title={t('admin.refundedItems')} empty="" count={subscribersRefunded.length}>
              {subscribersRefunded.map((item) => (
                <RefundedItem key={`${item.orderId}-${item.platformId}`} item={item} />
              ))}
            </ItemList>
          )}
        </Stack>
      </Box>
    </Stack>
  );
}

function ItemList({ testId, title, empty, count, children }: { testId: string; title: string; empty: string; count: number; children: ReactNode }) {
  return (
    <Box as="section" aria-labelledby={`${testId}-heading`} data-testid={testId} data-count={count}>
      <Heading as="h3" id={`${testId}-heading`} size="md" mb="3">
        {title} ({count})
      </Heading>
      {count === 0 ? (
        <Text data-testid={`${testId}-empty`} color="fg.muted" p="3" borderWidth="1px" borderStyle="dashed" borderRadius="md">
          {empty}
        </Text>
      ) : (
        <chakra.ul m="0" p="0" display="flex" flexDirection="column" gap="3">
          {children}
        </chakra.ul>
      )}
    </Box>
  );
}

/** An item's order, type and duration (the items without a subscription show these). */
function OrderFields({ item }: { item: PanelItem }) {
  const t = useT(ADMIN_TEXTS);
  return (
    <>
      <ItemField label={t('admin.orderId')} testId="admin-item-order">
        {item.orderId}
      </ItemField>
      <ItemField label={t('admin.type')} testId="admin-item-type">
        {item.type}
      </ItemField>
      <ItemField label={t('admin.duration')} testId="admin-item-duration">
        {item.duration}
      </ItemField>
    </>
  );
}

/** A refunded order's item: what was bought, and the badge; its access has ended. */
function RefundedItem({ item }: { item: PanelItem }) {
  return (
    <AdminItem item={item} testId="admin-refunded-item" fields={<OrderFields item={item} />}>
      <Box>
        <OrderStateBadge state={REFUNDED_STATE} />
      </Box>
    </AdminItem>
  );
}

/** Refund on an item's order: opens the refund dialog (the quote says whether and how much). */
function IncompleteItem({ item, activating, canRefund }: { item: PanelItem; activating: boolean; canRefund: boolean }) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const paidNotCompleted = !item.haveInvitation || Boolean(item.invitationEmail);
  return (
    <AdminItem
      item={item}
      testId="admin-incomplete-item"
      fields={
        <>
          <OrderFields item={item} />
          {item.haveInvitation && item.invitationEmail && (
            <ItemField label={t('admin.invitationEmail')} testId="admin-item-invitation">
              {item.invitationEmail}
            </ItemField>
          )}
        </>
      }
    >
      {item.haveInvitation && !item.invitationEmail && (
        <Text data-testid="admin-item-invitation-hint" role="note" fontSize="sm" p="3" borderRadius="md" bg="blue.50" color="blue.900">
          {t('admin.invitationHint')}
        </Text>
      )}
      <HStack justify="space-between" gap="3" wrap="wrap">
        {paidNotCompleted ? (
          <Text data-testid="admin-item-paid-not-completed" fontWeight="bold" color="orange.700">
            {t('admin.paidNotCompleted')}
          </Text>
        ) : (
          <span />
        )}
        <HStack gap="2" wrap="wrap">
          {canRefund && <RefundButton orderId={item.orderId} testId="admin-item-refund" size="sm" />}
          <ActivateButton
            orderId={item.orderId}
            testId="admin-item-activate"
            size="sm"
            activating={activating}
            onActivate={() => dispatch(userOrderActivationRequested(item.orderId))}
          />
        </HStack>
      </HStack>
    </AdminItem>
  );
}

function ActiveItem({ item, replacing, canRefund }: { item: PanelItem; replacing: boolean; canRefund: boolean }) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const { culture } = useAppSelector(selectLanguage);
  const username = item.haveInvitation ? item.invitationEmail : item.email;
  const subscribeId = item.subscribeId;
  const [confirming, setConfirming] = useState(false);
  return (
    <AdminItem
      item={item}
      testId="admin-active-item"
      fields={
        <>
          <ItemField label={t('admin.subscribeId')} testId="admin-item-subscription">
            {subscribeId ?? '—'}
          </ItemField>
          <ItemField label={t('admin.orderId')} testId="admin-item-order">
            {item.orderId}
          </ItemField>
          <ItemField label={t('admin.username')} testId="admin-item-username">
            {username || '—'}
          </ItemField>
          {!item.haveInvitation && (
            <ItemField label={t('admin.password')} testId="admin-item-password">
              <chakra.span fontFamily="mono">{item.password ?? '—'}</chakra.span>
            </ItemField>
          )}
          {item.platformSlotCount > 1 && item.slotId !== null && (
            <ItemField label={t('admin.slot')} testId="admin-item-slot">
              {item.slotId === 0 ? t('admin.slotAll') : item.slotId}
            </ItemField>
          )}
          <ItemField label={t('admin.startTime')} testId="admin-item-start">
            {item.startTime ? <chakra.time dateTime={item.startTime}>{formatMediumDate(item.startTime, culture)}</chakra.time> : '—'}
          </ItemField>
          <ItemField label={t('admin.endTime')} testId="admin-item-end">
            {item.endTime ? <chakra.time dateTime={item.endTime}>{formatMediumDate(item.endTime, culture)}</chakra.time> : '—'}
          </ItemField>
          <ItemField label={t('admin.replacedFrom')} testId="admin-item-replaced-from">
            {item.replacedFrom ?? '—'}
          </ItemField>
          {item.autoRenew && (
            <ItemField label={t('admin.renewal')} testId="admin-item-renewal">
              <RenewalState renewal={item.autoRenew} />
            </ItemField>
          )}
        </>
      }
    >
      {(subscribeId !== null || canRefund) && (
        <HStack gap="2" wrap="wrap">
          {subscribeId !== null && (
            <Button
              data-testid="admin-item-replace"
              size="sm"
              variant="outline"
              colorPalette="purple"
              loading={replacing}
              aria-label={t('admin.replaceLabel', { id: subscribeId })}
              aria-expanded={confirming}
              onClick={() => setConfirming(true)}
            >
              {t('admin.replace')}
            </Button>
          )}
          {canRefund && <RefundButton orderId={item.orderId} testId="admin-item-refund" size="sm" />}
        </HStack>
      )}
      {confirming && subscribeId !== null ? (
        // Replacing changes the buyer's login details at once: asked once more, in words (issue 35).
        <Flex
          data-testid="admin-item-replace-confirm"
          role="alertdialog"
          aria-label={t('admin.replaceLabel', { id: subscribeId })}
          gap="2"
          wrap="wrap"
          align="center"
        >
          <Text fontSize="sm">{t('admin.replaceConfirm', { id: subscribeId })}</Text>
          <Button
            data-testid="admin-item-replace-yes"
            size="sm"
            colorPalette="purple"
            onClick={() => {
              setConfirming(false);
              dispatch(replaceRequested({ subscribeId, orderId: item.orderId }));
            }}
          >
            {t('admin.replaceConfirmYes')}
          </Button>
          <Button data-testid="admin-item-replace-cancel" size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            {t('admin.replaceCancel')}
          </Button>
        </Flex>
      ) : null}
    </AdminItem>
  );
}
