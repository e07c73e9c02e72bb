import { Text } from '@chakra-ui/react';
import type { PanelItem } from '../../../services/api/panel';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';
import { InvitationForm } from './InvitationForm';
import { Field, ItemFrame, Note, OrderFields } from './ItemFrame';

interface IncompleteItemProps {
  item: PanelItem;
  /** The viewer's own panel: only the buyer gives the invitation e-mail (staff see the state). */
  own: boolean;
}

/**
 * A paid order waiting for activation (spec section 2): platform image, order id, type,
 * duration; then the invitation form, or the invitation e-mail read-only, and the note that
 * the subscription will be activated (no invitation, or the e-mail is given).
 */
export function IncompleteItem({ item, own }: IncompleteItemProps) {
  const t = useT(PANEL_TEXTS);
  const needsEmail = item.haveInvitation && !item.invitationEmail;
  return (
    <ItemFrame item={item} testId="panel-incomplete-item">
      <OrderFields item={item}>
        {item.haveInvitation && item.invitationEmail && (
          <Field label={t('panel.invitationEmail')} testId="panel-invitation-readonly">
            {item.invitationEmail}
          </Field>
        )}
      </OrderFields>
      {needsEmail &&
        (own ? (
          <InvitationForm orderId={item.orderId} platformName={item.platformName} />
        ) : (
          <Text data-testid="panel-invitation-missing" color="fg.muted">
            {t('panel.invitationMissing')}
          </Text>
        ))}
      {!needsEmail && <Note testId="panel-activation-note">{t('panel.activationNote')}</Note>}
    </ItemFrame>
  );
}
