import { pagePath } from '@subshare/core/pages';
import { useEffect } from 'react';
import { Box, Spinner, Stack, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ButtonLink } from '../../../components/ui/links';
import { usePageMeta } from '../../../components/ui/usePageMeta';
import { selectUserId } from '../../auth/selectors';
import { ResultPanel } from '../components/ResultPanel';
import { selectPayssionStatus } from '../selectors';
import { payssionResultClosed, payssionResultOpened } from '../slice';
import { CHECKOUT_TEXTS } from '../texts';
import { useT } from '../../language/useT';

/**
 * /payssionpaymentresult?transaction_id&order_id: the Korean methods' return page. The payment
 * is checked with the server (which asks the provider), then the outcome shown (spec section 2);
 * a check that fails counts as a failed payment.
 */
export default function PayssionResultPage() {
  const t = useT(CHECKOUT_TEXTS);
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const orderId = params.get('order_id');
  const transactionId = params.get('transaction_id');
  const status = useAppSelector(selectPayssionStatus);
  const userId = useAppSelector(selectUserId);
  usePageMeta({ title: status === 'paid' ? t('payssion.success') : status === 'failed' ? t('payssion.failed') : t('result.title'), robots: 'noindex' });

  useEffect(() => {
    dispatch(payssionResultOpened({ orderId, transactionId }));
    return () => {
      dispatch(payssionResultClosed());
    };
  }, [dispatch, orderId, transactionId]);

  return (
    <Box data-testid="page-payssion-result" maxW="2xl" mx="auto" px={{ base: '4', md: '6' }} py={{ base: '8', md: '12' }}>
      <Box data-testid="payssion-result" data-status={status}>
        {status === 'checking' ? (
          <Stack data-testid="payssion-checking" role="status" gap="6" align="center" py="12">
            <Spinner size="xl" color="purple.600" borderWidth="4px" />
            <Text fontSize="lg">{t('payssion.checking')}</Text>
          </Stack>
        ) : status === 'paid' ? (
          <ResultPanel
            testId="payssion-outcome"
            parts="payssion-result"
            success
            title={t('payssion.success')}
            lines={[t('payssion.successText'), t('result.activation')]}
          >
            <ButtonLink
              data-testid="payssion-result-subscriptions"
              to={userId !== null ? pagePath.user(userId) : pagePath.login()}
              colorPalette="purple"
              size="lg"
            >
              {t('result.goToSubscriptions')}
            </ButtonLink>
          </ResultPanel>
        ) : (
          <ResultPanel testId="payssion-outcome" parts="payssion-result" success={false} title={t('payssion.failed')} lines={[t('payssion.tryLater')]}>
            <ButtonLink data-testid="payssion-result-home" to="/" colorPalette="purple" size="lg">
              {t('result.home')}
            </ButtonLink>
          </ResultPanel>
        )}
      </Box>
    </Box>
  );
}
