import { pagePath } from '@subshare/core/pages';
import { useState, type ReactNode } from 'react';
import { Box, Button, Flex, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { keyframes } from '@emotion/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { RouterLink } from '../../../components/ui/links';
import type { PanelItem } from '../../../services/api/panel';
import { selectIsStaff } from '../../auth/selectors';
import { selectVerifications } from '../selectors';
import { verificationRequested, type VerificationKind, type VerificationState } from '../slice';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';

const slide = keyframes`
  from { transform: translateX(-100%); }
  to { transform: translateX(250%); }
`;

/** Spec section 2, "While polling": an indeterminate progress bar and 'please wait'. */
function Polling() {
  const t = useT(PANEL_TEXTS);
  return (
    <Stack gap="1" data-testid="panel-verification-polling">
      <Box role="progressbar" aria-label={t('panel.pleaseWait')} aria-busy="true" h="1.5" w="full" bg="gray.200" borderRadius="full" overflow="hidden">
        <Box h="full" w="40%" bg="purple.500" borderRadius="full" css={{ animation: `${slide} 1.2s ease-in-out infinite` }} />
      </Box>
      <Text fontSize="sm" color="fg.muted" data-testid="panel-verification-wait">
        {t('panel.pleaseWait')}
      </Text>
    </Stack>
  );
}

function useVerification(item: PanelItem): VerificationState | undefined {
  const all = useAppSelector(selectVerifications);
  return item.subscribeId === null ? undefined : all[item.subscribeId];
}

function useRequest(item: PanelItem, kind: VerificationKind) {
  const dispatch = useAppDispatch();
  return () => {
    if (item.subscribeId !== null) dispatch(verificationRequested({ subscriptionId: item.subscribeId, kind }));
  };
}

/** After the last poll without an answer: say so, and offer another round. */
function Stopped({ onRetry }: { onRetry: () => void }) {
  const t = useT(PANEL_TEXTS);
  return (
    <Flex align="center" gap="3" wrap="wrap" data-testid="panel-verification-stopped">
      <Text fontSize="sm" color="fg.muted">
        {t('panel.verificationStopped')}
      </Text>
      <Button size="xs" variant="outline" onClick={onRetry} data-testid="panel-verification-retry">
        {t('panel.verificationRetry')}
      </Button>
    </Flex>
  );
}

/**
 * An answer that waiting cannot change (e.g. the shop reads no mailbox): said at once, with what
 * to do. Staff also see the server's own message, which names the setting to fix (in English).
 */
function Failed({ failure, retries, onRetry }: { failure: NonNullable<VerificationState['failure']>; retries: number; onRetry: () => void }) {
  const t = useT(PANEL_TEXTS);
  const isStaff = useAppSelector(selectIsStaff);
  return (
    <Stack gap="2" role="alert" data-testid="panel-verification-failed" data-code={failure.code ?? undefined} data-retries={retries}>
      <Text fontSize="sm" color="red.700" data-testid="panel-verification-failed-message">
        {failure.message}
      </Text>
      {/* After "Try again" the same answer says it was asked once more: otherwise the button seems to do nothing. */}
      {retries > 0 && (
        <Text fontSize="sm" color="fg.muted" data-testid="panel-verification-retried">
          {t('panel.verificationRetried', { count: retries })}
        </Text>
      )}
      {isStaff && failure.serverMessage && failure.serverMessage !== failure.message && (
        <Text fontSize="sm" color="fg.muted" data-testid="panel-verification-staff-note">
          {failure.serverMessage}
        </Text>
      )}
      <Flex align="center" gap="3" wrap="wrap">
        <RouterLink to={pagePath.support()} fontSize="sm" fontWeight="semibold" color="purple.700" data-testid="panel-verification-support">
          {t('panel.contactSupport')}
        </RouterLink>
        <Button size="xs" variant="outline" onClick={onRetry} data-testid="panel-verification-retry">
          {t('panel.verificationRetry')}
        </Button>
      </Flex>
    </Stack>
  );
}

/** The button that asks the server for a link or code, then the polling bar, the 'stopped' note or why it failed. */
function RequestButton(props: { item: PanelItem; verification: VerificationState | undefined; onRequest: () => void; testId: string; children: ReactNode }) {
  const { item, verification, onRequest, testId, children } = props;
  return (
    <>
      <Box>
        <Button
          size="sm"
          colorPalette="purple"
          onClick={onRequest}
          disabled={verification?.status === 'polling' || item.subscribeId === null}
          data-testid={testId}
        >
          {children}
        </Button>
      </Box>
      {verification?.status === 'polling' && <Polling />}
      {verification?.status === 'stopped' && <Stopped onRetry={onRequest} />}
      {verification?.status === 'failed' && verification.failure && (
        <Failed failure={verification.failure} retries={verification.retries} onRetry={onRequest} />
      )}
    </>
  );
}

/**
 * Video platforms (type 0): the 'not part of the household' section. Its button toggles the four
 * steps; the third asks the server for the verification link (polled), the fourth is the link,
 * opening in a new tab, once it is known.
 */
export function HouseholdGuide({ item }: { item: PanelItem }) {
  const t = useT(PANEL_TEXTS);
  const [open, setOpen] = useState(false);
  const verification = useVerification(item);
  const request = useRequest(item, 'link');
  const link = verification?.kind === 'link' ? verification.value : null;
  return (
    <Box as="section" data-testid="panel-household" borderTopWidth="1px" pt="3">
      <Flex align="center" justify="space-between" gap="3" wrap="wrap">
        <Heading as="h4" size="sm">
          {t('panel.household')}
        </Heading>
        <Button size="sm" variant="outline" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="panel-household-toggle">
          {open ? t('panel.householdHide') : t('panel.householdToggle')}
        </Button>
      </Flex>
      {open && (
        <chakra.ol data-testid="panel-household-guide" mt="3" ps="5" display="grid" gap="2" listStyleType="decimal">
          <li>{t('panel.householdStep1')}</li>
          <li>{t('panel.householdStep2')}</li>
          <li>
            <Stack gap="2">
              <span>{t('panel.householdStep3')}</span>
              <RequestButton item={item} verification={verification} onRequest={request} testId="panel-household-fetch">
                {t('panel.householdFetch')}
              </RequestButton>
            </Stack>
          </li>
          <li>
            <Stack gap="2">
              <span>{t('panel.householdStep4')}</span>
              {link && (
                <Box>
                  <chakra.a
                    href={link}
                    target="_blank"
                    rel="noopener noreferrer"
                    data-testid="panel-household-link"
                    display="inline-flex"
                    alignItems="center"
                    px="3"
                    py="1.5"
                    borderRadius="md"
                    bg="purple.600"
                    color="white"
                    fontWeight="semibold"
                    fontSize="sm"
                    _hover={{ bg: 'purple.700' }}
                  >
                    {t('panel.householdLink')}
                  </chakra.a>
                </Box>
              )}
            </Stack>
          </li>
        </chakra.ol>
      )}
    </Box>
  );
}

/** AI-chat platforms (type 8): 'Request Verification Code', and the code once it has arrived (polled). */
export function LoginCode({ item }: { item: PanelItem }) {
  const t = useT(PANEL_TEXTS);
  const verification = useVerification(item);
  const request = useRequest(item, 'code');
  const code = verification?.kind === 'code' ? verification.value : null;
  return (
    <Box as="section" data-testid="panel-login-code" borderTopWidth="1px" pt="3">
      <Stack gap="2">
        <Text fontSize="sm" color="fg.muted">
          {t('panel.codeNote')}
        </Text>
        <RequestButton item={item} verification={verification} onRequest={request} testId="panel-code-request">
          {t('panel.codeRequest')}
        </RequestButton>
        {code && (
          <Flex align="baseline" gap="2">
            <Text fontSize="sm" color="fg.muted">
              {t('panel.codeLabel')}
            </Text>
            <chakra.output data-testid="panel-code-value" fontFamily="mono" fontSize="2xl" fontWeight="bold" letterSpacing="widest">
              {code}
            </chakra.output>
          </Flex>
        )}
      </Stack>
    </Box>
  );
}
