/**
 * /user/{id}, the buyer's panel (spec section 2, "Customer panel"): the profile and the
 * Subscriptions heading with two lists, the paid orders waiting for activation and the active
 * subscriptions, and a third of refunded orders when there are any (beyond the spec: their access
 * ended with the money, so they show no credentials). Logged-in only (the route guard); the server decides whose panel may be read:
 * another buyer's is refused (403) and shown as such, never as a blank page.
 *
 * Loading this chunk adds the panel slice to the store (slice.ts) and starts the panel saga.
 */
import { pagePath } from '@subshare/core/pages';
import { useEffect, type ReactNode } from 'react';
import { Box, Button, Heading, HStack, Spinner, Stack, Text, chakra } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { injectSaga } from '../../../app/sagaInjector';
import { ButtonLink } from '../../../components/ui/links';
import { usePageMeta } from '../../../components/ui/usePageMeta';
import type { PanelItem, UserPanel } from '../../../services/api/panel';
import { selectUserId } from '../../auth/selectors';
import { ActiveItem } from '../components/ActiveItem';
import { IncompleteItem } from '../components/IncompleteItem';
import { InviteFriends } from '../components/InviteFriends';
import { ProfileCard, displayName } from '../components/ProfileCard';
import { RefundedItem } from '../components/RefundedItem';
import { userIdOf } from '../format';
import { panelSaga } from '../saga';
import { selectPanel, selectPanelRetryable, selectPanelStatus } from '../selectors';
import { panelClosed, panelOpened, panelRequested, type PanelStatus } from '../slice';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';

injectSaga('panel', panelSaga);

export default function UserPanelPage() {
  const t = useT(PANEL_TEXTS);
  const dispatch = useAppDispatch();
  const { id } = useParams();
  const userId = userIdOf(id);
  const viewerId = useAppSelector(selectUserId);
  const status = useAppSelector(selectPanelStatus);
  const panel = useAppSelector(selectPanel);
  const own = userId !== null && userId === viewerId;

  useEffect(() => {
    dispatch(panelOpened(userId));
    return () => {
      dispatch(panelClosed());
    };
  }, [dispatch, userId]);

  const title =
    status === 'forbidden'
      ? t('panel.forbiddenTitle')
      : status === 'notFound'
        ? t('panel.notFoundTitle')
        : panel && !own
          ? t('panel.titleOf', { name: displayName(panel.user) })
          : t('panel.title');
  usePageMeta({ title, robots: 'noindex' });

  return (
    <Box
      data-testid="page-user-panel"
      data-status={status === 'idle' ? 'loading' : status}
      data-user-id={userId ?? undefined}
      aria-busy={status === 'loading'}
      maxW="4xl"
      mx="auto"
      px={{ base: '4', md: '6' }}
      py={{ base: '8', md: '12' }}
    >
      <Heading as="h1" size={{ base: '2xl', md: '3xl' }} mb="6">
        {title}
      </Heading>
      <PanelBody status={status} panel={panel} own={own} viewerId={viewerId} />
    </Box>
  );
}

function PanelBody({ status, panel, own, viewerId }: { status: PanelStatus; panel: UserPanel | null; own: boolean; viewerId: number | null }) {
  const retryable = useAppSelector(selectPanelRetryable);
  const t = useT(PANEL_TEXTS);
  const dispatch = useAppDispatch();

  if (status === 'forbidden' || status === 'notFound') {
    const forbidden = status === 'forbidden';
    return (
      <Stack data-testid="panel-refused" data-reason={status} role="alert" gap="4" align="flex-start" p="5" borderRadius="lg" bg="bg.muted">
        <Text>{forbidden ? t('panel.forbiddenText') : t('panel.notFoundText')}</Text>
        <HStack gap="3" wrap="wrap">
          {viewerId !== null && !own && (
            <ButtonLink data-testid="panel-own-link" to={pagePath.user(viewerId)} colorPalette="purple">
              {t('panel.toOwnPanel')}
            </ButtonLink>
          )}
          <ButtonLink data-testid="panel-home" to="/" variant="outline">
            {t('panel.home')}
          </ButtonLink>
        </HStack>
      </Stack>
    );
  }
  if (status === 'failed' && !panel) {
    return (
      <Stack data-testid="panel-failed" role="alert" gap="4" align="flex-start" p="5" borderRadius="lg" bg="bg.error">
        <Text>{t(retryable ? 'panel.failed' : 'panel.refused')}</Text>
        {retryable && (
          <Button data-testid="panel-retry" colorPalette="purple" onClick={() => dispatch(panelRequested())}>
            {t('panel.retry')}
          </Button>
        )}
      </Stack>
    );
  }
  if (!panel) {
    return (
      <HStack data-testid="panel-loading" role="status" gap="3" py="6" color="fg.muted">
        <Spinner size="sm" color="purple.600" />
        <Text>{t('panel.loading')}</Text>
      </HStack>
    );
  }
  const refunded = panel.subscribersRefunded;
  return (
    <Stack gap="8">
      <ProfileCard user={panel.user} />
      <Box as="section" aria-labelledby="panel-subscriptions-heading">
        <Heading as="h2" id="panel-subscriptions-heading" data-testid="panel-subscriptions-heading" size="2xl" mb="5">
          {t('panel.subscriptions')}
        </Heading>
        <Stack gap="8">
          <ItemList
            testId="panel-incomplete"
            title={t('panel.incomplete')}
            items={panel.subscribersNotCompleted}
            empty={<Text>{t('panel.incompleteEmpty')}</Text>}
            render={(item) => <IncompleteItem key={`${item.orderId}-${item.platformId}`} item={item} own={own} />}
          />
          <ItemList
            testId="panel-active"
            title={t('panel.active')}
            items={panel.subscribers}
            empty={
              <Stack gap="3" align="flex-start">
                <Text>{t('panel.activeEmpty')}</Text>
                {own && (
                  <ButtonLink data-testid="panel-browse" to="/" variant="outline" size="sm">
                    {t('panel.browse')}
                  </ButtonLink>
                )}
              </Stack>
            }
            render={(item) => <ActiveItem key={item.subscribeId ?? `order-${item.orderId}`} item={item} />}
          />
          {refunded.length > 0 && (
            <ItemList
              testId="panel-refunded"
              title={t('panel.refunded')}
              items={refunded}
              empty={null}
              render={(item) => <RefundedItem key={`${item.orderId}-${item.platformId}`} item={item} />}
            />
          )}
        </Stack>
      </Box>
      {/* The buyer's own "Invite friends", after what they came for (staff reading a panel see none). */}
      {own && <InviteFriends />}
    </Stack>
  );
}

interface ItemListProps {
  testId: string;
  title: string;
  items: PanelItem[];
  empty: ReactNode;
  render: (item: PanelItem) => ReactNode;
}

/** One of the lists under the Subscriptions heading, with its own heading and empty state. */
function ItemList({ testId, title, items, empty, render }: ItemListProps) {
  const headingId = `${testId}-heading`;
  return (
    <Box as="section" aria-labelledby={headingId} data-testid={testId} data-count={items.length}>
      <Heading as="h3" id={headingId} size="lg" mb="3">
        {title}{' '}
        <chakra.span color="fg.muted" fontWeight="normal">
          ({items.length})
        </chakra.span>
      </Heading>
      {items.length === 0 ? (
        <Box data-testid={`${testId}-empty`} p="4" borderRadius="lg" borderWidth="1px" borderStyle="dashed" color="fg.muted">
          {empty}
        </Box>
      ) : (
        <chakra.ul m="0" p="0" display="flex" flexDirection="column" gap="4">
          {items.map(render)}
        </chakra.ul>
      )}
    </Box>
  );
}
