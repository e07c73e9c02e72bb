/**
 * Asks before a step that is easy to take by mistake and hard to undo for someone else (granting
 * Admin, demoting, hiding or showing a platform): the question names the user or platform, and
 * the step runs only on Confirm. Cancel, Escape or the backdrop leave everything as it was.
 */
import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useT } from '../../language/useT';
import { ADMIN_TEXTS } from '../texts';

export interface ConfirmRequest {
  title: string;
  /** The question, naming who or what the step changes. */
  text: string;
  confirmLabel: string;
  /** Red for a step that takes something away (demote, hide). */
  danger?: boolean;
  onConfirm: () => void;
}

export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose: () => void }) {
  const t = useT(ADMIN_TEXTS);
  if (!request) return null;
  return (
    <Dialog.Root open role="alertdialog" onOpenChange={(details) => !details.open && onClose()} placement="center" size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="admin-confirm">
            <Dialog.Header>
              <Dialog.Title>{request.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text data-testid="admin-confirm-text">{request.text}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button data-testid="admin-confirm-cancel" variant="outline" onClick={onClose}>
                {t('admin.cancel')}
              </Button>
              <Button
                data-testid="admin-confirm-ok"
                colorPalette={request.danger ? 'red' : 'purple'}
                onClick={() => {
                  onClose();
                  request.onConfirm();
                }}
              >
                {request.confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
