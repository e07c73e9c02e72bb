import { Box, chakra, Text } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import type { MoneyEvent } from '../../../services/api/admin';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { formatDateTime, formatMoney } from '../format';
import { ADMIN_TEXTS } from '../texts';

/**
 * The order's money ledger, oldest first: each event's time, the provider's ids (the event's and
 * the money's), what it says (kind and status), its amount and what it did to the order; an event
 * still waiting for its payment says so.
 */
export function MoneyEvents({ events, testId = 'admin-money-events' }: { events: MoneyEvent[]; testId?: string }) {
  const t = useT(ADMIN_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  if (events.length === 0) return null;
  return (
    <Box as="section" aria-labelledby={`${testId}-heading`}>
      <Text id={`${testId}-heading`} fontSize="sm" fontWeight="semibold" mb="1">
        {t('admin.moneyEvents')}
      </Text>
      <chakra.ul m="0" ps="5" fontSize="sm" data-testid={testId}>
        {events.map((event) => (
          <li
            key={event.id}
            data-testid="admin-money-event"
            data-kind={event.kind}
            data-status={event.status}
            data-effect={event.effect ?? undefined}
            data-waiting={event.appliedDate === null ? 'true' : 'false'}
          >
            {formatDateTime(event.recordedDate, culture)} · {event.provider} {event.eventId} · {event.kind} {event.providerId} {event.status}
            {event.amount !== null && event.currencyCode ? ` · ${formatMoney(event.amount, event.currencyCode, culture)}` : ''} ·{' '}
            <chakra.strong fontWeight="semibold">
              {event.appliedDate === null ? t('admin.moneyEventWaiting', { payment: event.waitingFor ?? '' }) : (event.effect ?? '')}
            </chakra.strong>
          </li>
        ))}
      </chakra.ul>
    </Box>
  );
}
