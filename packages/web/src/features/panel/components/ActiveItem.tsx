import { pagePath } from '@subshare/core/pages';
import { Flex, Text, chakra } from '@chakra-ui/react';
import { PLATFORM_CATEGORY } from '@subshare/core/wire/enums';
import { useAppSelector } from '../../../app/hooks';
import { ButtonLink } from '../../../components/ui/links';
import type { PanelItem } from '../../../services/api/panel';
import { selectLanguage } from '../../language/selectors';
import { formatDateTime } from '../format';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';
import { Field, Fields, ItemFrame } from './ItemFrame';
import { RenewalSwitch } from './RenewalSwitch';
import { ProblemReport } from './ProblemReport';
import { Password, Username } from './Secret';
import { HouseholdGuide, LoginCode } from './Verification';

function When({ iso, testId, label }: { iso: string | null; testId: string; label: string }) {
  const { culture } = useAppSelector(selectLanguage);
  return (
    <Field label={label} testId={testId}>
      {iso ? <chakra.time dateTime={iso}>{formatDateTime(iso, culture)}</chakra.time> : '—'}
    </Field>
  );
}

/**
 * An active subscription (spec section 2): platform image, order id, username (the invitation
 * e-mail for family invitations, otherwise the account's e-mail plus its password), the
 * profile to use when the account is shared (more than one slot: 'all' for slot 0, else
 * 'use profile number n'), start and end time, subscription id, the household guide (video)
 * or the login-code button (AI chat), and the renewal: buying the same platform again extends
 * this subscription on the same slot. While the account is being repaired the old login details
 * are shown without Copy buttons and said to maybe not work; "It doesn't work" reports a problem
 * (issue 33).
 */
export function ActiveItem({ item }: { item: PanelItem }) {
  const t = useT(PANEL_TEXTS);
  const username = item.haveInvitation ? (item.invitationEmail ?? item.email) : item.email;
  // Issue 33: the old credentials of an account being repaired are not offered for copying.
  const repairing = item.health === 'repairing';
  return (
    <ItemFrame item={item} testId="panel-active-item">
      {item.health !== 'ok' && (
        // Issue 29: the account broke. Moved: these are the new login details; repairing: no slot was free yet.
        <Text
          data-testid="panel-health"
          data-health={item.health}
          role="status"
          mb="3"
          p="3"
          borderRadius="md"
          bg={item.health === 'moved' ? 'green.subtle' : 'orange.subtle'}
        >
          {t(item.health === 'moved' ? 'panel.healthMoved' : 'panel.healthRepairing')}
        </Text>
      )}
      <Fields>
        <Field label={t('panel.orderId')} testId="panel-item-order">
          {item.orderId}
        </Field>
        <Field label={t('panel.username')} testId="panel-username-field">
          {username ? <Username value={username} copyable={!repairing} /> : '—'}
        </Field>
        {!item.haveInvitation && item.password !== null && (
          <Field label={t('panel.password')} testId="panel-password-field">
            <Password value={item.password} copyable={!repairing} />
          </Field>
        )}
        {item.platformSlotCount > 1 && item.slotId !== null && (
          <Field label={t('panel.slot')} testId="panel-slot">
            <chakra.span data-slot-id={item.slotId}>{item.slotId === 0 ? t('panel.slotAll') : t('panel.slotNumber', { slot: item.slotId })}</chakra.span>
          </Field>
        )}
        <When iso={item.startTime} testId="panel-start" label={t('panel.startTime')} />
        <When iso={item.endTime} testId="panel-end" label={t('panel.endTime')} />
        <Field label={t('panel.subscriptionId')} testId="panel-subscription-id">
          {item.knownSubscribeId ?? item.subscribeId ?? '—'}
        </Field>
      </Fields>
      {repairing && !item.haveInvitation && (
        <Text data-testid="panel-credentials-may-not-work" fontSize="sm" color="orange.fg" mb="3">
          {t('panel.repairingCredentials')}
        </Text>
      )}
      {/* The account's mailbox serves only shared accounts: a family invitation logs in with the buyer's own e-mail. */}
      {!item.haveInvitation && item.platformType === PLATFORM_CATEGORY.videoStreaming && <HouseholdGuide item={item} />}
      {!item.haveInvitation && item.platformType === PLATFORM_CATEGORY.aiChat && <LoginCode item={item} />}
      <ProblemReport item={item} />
      <RenewalSwitch item={item} />
      {/* Renewing automatically, a "Renew" button beside the switch would invite paying twice: the note says when the charge comes. */}
      {!item.autoRenew?.enabled && (
        <Flex align="center" gap="3" wrap="wrap">
          <ButtonLink
            data-testid="panel-renew"
            to={pagePath.platform(item.platformId)}
            colorPalette="purple"
            aria-label={t('panel.renewLabel', { platform: item.platformName })}
          >
            {t('panel.renew')}
          </ButtonLink>
          <Text fontSize="sm" color="fg.muted">
            {t('panel.renewNote', { platform: item.platformName })}
          </Text>
        </Flex>
      )}
    </ItemFrame>
  );
}
