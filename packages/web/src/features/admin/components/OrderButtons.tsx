/**
 * The buttons staff act on one order with, wherever the order is shown (the orders list, a
 * user's page): Activate and Refund, each labelled with the order's id for screen readers.
 */
import { Button, type ButtonProps } from '@chakra-ui/react';
import { useAppDispatch } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { refundDialogOpened } from '../slice';
import { ADMIN_TEXTS } from '../texts';

interface OrderButtonProps {
  orderId: number;
  testId: string;
  size: ButtonProps['size'];
}

/** Opens the refund dialog for the order (admins). */
export function RefundButton({ orderId, testId, size }: OrderButtonProps) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  return (
    <Button
      data-testid={testId}
      size={size}
      variant="outline"
      colorPalette="red"
      aria-label={t('admin.refundLabel', { id: orderId })}
      onClick={() => dispatch(refundDialogOpened(orderId))}
    >
      {t('admin.refund')}
    </Button>
  );
}

/** Activates a waiting order now; `onActivate` asks through the page's own request, so its view updates. */
export function ActivateButton({ orderId, testId, size, activating, onActivate }: OrderButtonProps & { activating: boolean; onActivate: () => void }) {
  const t = useT(ADMIN_TEXTS);
  return (
    <Button
      data-testid={testId}
      size={size}
      colorPalette="purple"
      loading={activating}
      aria-label={t('admin.activateLabel', { id: orderId })}
      onClick={onActivate}
    >
      {t('admin.activate')}
    </Button>
  );
}
