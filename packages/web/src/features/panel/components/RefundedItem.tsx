import { StatusBadge } from '../../../components/ui/StatusBadge';
import type { PanelItem } from '../../../services/api/panel';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';
import { ItemFrame, Note, OrderFields } from './ItemFrame';

/**
 * A refunded order (beyond the spec): platform image, order id, type, duration and a Refunded
 * badge. Its access ended with the money, so nothing of the account is shown, whatever the item
 * carries: no username, password, profile or verification fetch.
 */
export function RefundedItem({ item }: { item: PanelItem }) {
  const t = useT(PANEL_TEXTS);
  return (
    <ItemFrame item={item} testId="panel-refunded-item">
      <StatusBadge tone="red" testId="panel-refunded-badge">
        {t('panel.refundedBadge')}
      </StatusBadge>
      <OrderFields item={item} />
      <Note testId="panel-refunded-note">{t('panel.refundedNote')}</Note>
    </ItemFrame>
  );
}
