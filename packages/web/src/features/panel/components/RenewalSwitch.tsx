import { Stack, Switch, Text } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { PanelItem } from '../../../services/api/panel';
import { formatPrice } from '../../catalog/rules';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { formatDateTime } from '../format';
import { selectAutoRenewals } from '../selectors';
import { autoRenewToggled, renewalCardRequested } from '../slice';
import { PANEL_TEXTS } from '../texts';

/**
 * Automatic renewal of one active subscription (issue 28): its state, the next charge's date and
 * amount and the card, and the switch (`POST /api/subscribe/autorenew`); turned on when no card is
 * saved (a card payment without the opt-in), it opens Stripe's page to save one. A subscription paid with a
 * method that cannot be charged without the buyer says that a payment link comes by e-mail instead.
 */
export function RenewalSwitch({ item }: { item: PanelItem }) {
  const t = useT(PANEL_TEXTS);
  const dispatch = useAppDispatch();
  const { culture } = useAppSelector(selectLanguage);
  const pending = useAppSelector(selectAutoRenewals)[item.subscribeId ?? 0];
  const renewal = item.autoRenew;
  if (!renewal || item.subscribeId === null) return null;
  const subscriptionId = item.subscribeId;
  if (renewal.mode === 'link') {
    return (
      <Text data-testid="panel-autorenew-link" fontSize="sm" color="fg.muted">
        {t('panel.autoRenewLink')}
      </Text>
    );
  }
  const date = renewal.nextChargeAt ? formatDateTime(renewal.nextChargeAt, culture) : '—';
  const amount = renewal.amount !== null && renewal.currencyCode ? formatPrice(renewal.amount, renewal.currencyCode as 'EUR' | 'KRW') : '—';
  let note: string;
  if (renewal.status === 'retrying') note = t('panel.autoRenewRetrying', { date });
  else if (renewal.status === 'requires_action') note = t('panel.autoRenewAction');
  else if (renewal.enabled)
    note = renewal.cardLast4 ? t('panel.autoRenewOn', { amount, card: renewal.cardLast4, date }) : t('panel.autoRenewOnNoCard', { amount, date });
  else note = renewal.canEnable ? t('panel.autoRenewOff') : t('panel.autoRenewNoCard');
  return (
    <Stack gap="1" data-testid="panel-autorenew" data-enabled={renewal.enabled ? 'true' : 'false'}>
      <Switch.Root
        checked={renewal.enabled}
        disabled={pending?.status === 'submitting'}
        onCheckedChange={(details) =>
          void dispatch(
            // On without a saved card: Stripe's page to save one first (renewal is on once it is saved).
            details.checked && !renewal.canEnable ? renewalCardRequested(subscriptionId) : autoRenewToggled({ subscriptionId, enabled: details.checked }),
          )
        }
        colorPalette="purple"
      >
        <Switch.HiddenInput data-testid="panel-autorenew-switch" />
        <Switch.Control />
        <Switch.Label>{t('panel.autoRenew')}</Switch.Label>
      </Switch.Root>
      <Text data-testid="panel-autorenew-note" fontSize="sm" color="fg.muted">
        {note}
      </Text>
      {pending?.status === 'failed' && (
        <Text data-testid="panel-autorenew-error" role="alert" color="fg.error" fontSize="sm">
          {pending.message}
        </Text>
      )}
    </Stack>
  );
}
