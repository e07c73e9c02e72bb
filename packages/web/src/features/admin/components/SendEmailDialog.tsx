import { useState } from 'react';
import { Button, CloseButton, Dialog, Field, NativeSelect, Portal, Text } from '@chakra-ui/react';
import { adminKey, ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';
import { STAFF_SENDABLE_EMAIL_KINDS } from '@subshare/core/wire/enums';

/** The e-mail kinds staff may send (0–10, the server's templates). */

interface SendEmailDialogProps {
  user: { id: number; email: string };
  onSend: (emailType: number) => void;
  onClose: () => void;
}

/**
 * SEND EMAIL's small dialog: the kind of e-mail by its readable name, then Send. The result is
 * told by the snackbar (spec section 8: 'E-mail send successfully!' or the failure's message).
 */
export function SendEmailDialog({ user, onSend, onClose }: SendEmailDialogProps) {
  const t = useT(ADMIN_TEXTS);
  const [kind, setKind] = useState<number>(0);
  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} placement="center" size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="admin-send-email-dialog" data-user-id={user.id}>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                onSend(kind);
              }}
            >
              <Dialog.Header>
                <Dialog.Title>{t('admin.sendEmailTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Text mb="4" overflowWrap="anywhere">
                  {t('admin.sendEmailTo', { email: user.email })}
                </Text>
                <Field.Root>
                  <Field.Label>{t('admin.emailKind')}</Field.Label>
                  <NativeSelect.Root>
                    <NativeSelect.Field data-testid="admin-send-email-kind" value={kind} onChange={(event) => setKind(Number(event.currentTarget.value))}>
                      {STAFF_SENDABLE_EMAIL_KINDS.map((value) => {
                        const key = adminKey('admin.emailKind', value);
                        return (
                          <option key={value} value={value}>
                            {value} — {key ? t(key) : value}
                          </option>
                        );
                      })}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </Field.Root>
              </Dialog.Body>
              <Dialog.Footer>
                <Button data-testid="admin-send-email-cancel" variant="outline" onClick={onClose}>
                  {t('admin.cancel')}
                </Button>
                <Button data-testid="admin-send-email-submit" type="submit" colorPalette="purple">
                  {t('admin.send')}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('admin.cancel')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
