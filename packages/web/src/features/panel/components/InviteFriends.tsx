/**
 * "Invite friends" (issue 37): the buyer's invitation link with Copy and Share (the system share
 * sheet, where the browser has one), what referrals earned per currency, and how many friends
 * signed up and earned the buyer credit. Shown on the buyer's own panel only; read once when the
 * panel opens (`GET /api/user/referral`, which makes the code the first time).
 */
import { useEffect, useState } from 'react';
import { Box, Button, Flex, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { formatMoney } from '@subshare/core/storefront';
import { getReferral, type Referral } from '../../../services/api/panel';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';
import { Field } from './ItemFrame';
import { CopyButton } from './Secret';

/** True where the browser can hand a link to the system's share sheet (Web Share API). */
const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

export function InviteFriends() {
  const t = useT(PANEL_TEXTS);
  const [referral, setReferral] = useState<Referral | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    getReferral().then(
      (answer) => live && setReferral(answer),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  const share = (link: string) => {
    // A dismissed share sheet rejects: nothing to tell the buyer.
    navigator.share({ title: t('panel.inviteTitle'), text: t('panel.inviteShareText'), url: link }).catch(() => undefined);
  };

  return (
    <Box
      as="section"
      aria-labelledby="panel-invite-heading"
      data-testid="panel-invite"
      data-status={referral ? 'ready' : failed ? 'failed' : 'loading'}
      borderWidth="1px"
      borderRadius="2xl"
      p={{ base: '5', md: '6' }}
    >
      <Heading as="h2" id="panel-invite-heading" size="md" mb="3">
        {t('panel.inviteTitle')}
      </Heading>
      <Text mb="4" data-testid="panel-invite-intro">
        {t('panel.inviteIntro')}
      </Text>
      {failed && (
        <Text role="alert" color="fg.error">
          {t('panel.inviteFailed')}
        </Text>
      )}
      {referral && (
        <Stack gap="4">
          <Stack gap="2">
            <Text fontWeight="semibold">{t('panel.inviteLink')}</Text>
            <Flex align="center" gap="2" wrap="wrap">
              <chakra.span data-testid="panel-invite-link" data-code={referral.code} fontFamily="mono" overflowWrap="anywhere">
                {referral.link}
              </chakra.span>
              <CopyButton value={referral.link} label={t('panel.inviteCopy')} testId="panel-invite-copy" />
              {canShare() && (
                <Button data-testid="panel-invite-share" variant="outline" size="xs" onClick={() => share(referral.link)}>
                  {t('panel.inviteShare')}
                </Button>
              )}
            </Flex>
          </Stack>
          <Box as="dl" display="grid" gridTemplateColumns={{ base: '1fr', sm: 'repeat(3, minmax(0, 1fr))' }} gap="3" m="0">
            <Field label={t('panel.inviteEarned')} testId="panel-invite-earned">
              {referral.credit.length === 0
                ? t('panel.inviteNoCredit')
                : referral.credit.map((entry) => (
                    <chakra.span key={entry.currencyCode} display="block" data-currency={entry.currencyCode}>
                      {formatMoney(entry.amount, entry.currencyCode)}
                    </chakra.span>
                  ))}
            </Field>
            <Field label={t('panel.inviteInvited')} testId="panel-invite-invited">
              {referral.invited}
            </Field>
            <Field label={t('panel.inviteRewarded')} testId="panel-invite-rewarded">
              {referral.rewarded}
            </Field>
          </Box>
        </Stack>
      )}
    </Box>
  );
}
