/**
 * One subscription's automatic renewal (issue 28) in the admin's view of a user: off, on (with the
 * card) or a payment link by e-mail, this period's charge, and the next charge's amount and date.
 */
import { chakra } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import type { PanelItem } from '../../../services/api/panel';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { formatDateTime, formatMoney } from '../format';
import { adminKey, ADMIN_TEXTS } from '../texts';

export function RenewalState({ renewal }: { renewal: NonNullable<PanelItem['autoRenew']> }) {
  const t = useT(ADMIN_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const parts: string[] = [];
  if (renewal.mode === 'link') parts.push(t('admin.renewalLink'));
  else if (!renewal.enabled) parts.push(t('admin.renewalOff'));
  else parts.push(renewal.cardLast4 ? `${t('admin.renewalOn')}, ${t('admin.renewalCard', { card: renewal.cardLast4 })}` : t('admin.renewalOnNoCard'));
  const statusKey = renewal.status ? adminKey('admin.renewalStatus', renewal.status) : null;
  if (statusKey) parts.push(t('admin.renewalStatus', { status: t(statusKey) }));
  if (renewal.nextChargeAt) {
    const amount = renewal.amount !== null && renewal.currencyCode ? formatMoney(renewal.amount, renewal.currencyCode, culture) : '—';
    parts.push(t('admin.renewalNext', { amount, date: formatDateTime(renewal.nextChargeAt, culture) }));
  }
  return (
    <chakra.span data-testid="admin-item-renewal-state" data-enabled={renewal.enabled ? 'true' : 'false'} data-mode={renewal.mode}>
      {parts.join(' · ')}
    </chakra.span>
  );
}
