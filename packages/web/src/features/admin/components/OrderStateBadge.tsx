import { StatusBadge, type BadgeTone } from '../../../components/ui/StatusBadge';
import { adminKey, ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

/** Refunded stands out (the money went back); paid and waiting orders read as such; the rest stay quiet. */
const TONES: Readonly<Record<number, BadgeTone>> = { 0: 'gray', 1: 'blue', 2: 'green', 3: 'gray', 4: 'gray', 5: 'red', 6: 'orange' };

/** An order's state as a badge (`admin-order-state`, `data-state`), its word in the interface language. */
export function OrderStateBadge({ state }: { state: number }) {
  const t = useT(ADMIN_TEXTS);
  const key = adminKey('admin.state', state);
  return (
    <StatusBadge tone={TONES[state] ?? 'gray'} testId="admin-order-state" data={{ 'data-state': state }}>
      {key ? t(key) : t('admin.otherState', { state })}
    </StatusBadge>
  );
}
