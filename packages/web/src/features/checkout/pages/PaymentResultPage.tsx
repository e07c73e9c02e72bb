import { pagePath } from '@subshare/core/pages';
import type { MouseEvent } from 'react';
import { Box, Button } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ButtonLink } from '../../../components/ui/links';
import { usePageMeta } from '../../../components/ui/usePageMeta';
import { selectUserId } from '../../auth/selectors';
import { ResultPanel } from '../components/ResultPanel';
import { subscriptionsRequested } from '../slice';
import { CHECKOUT_TEXTS } from '../texts';
import { useT } from '../../language/useT';

/** The order id of the address, or null when it is not one. */
function orderIdOf(value: string | undefined): number | null {
  if (!value || !/^\d{1,12}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

/**
 * /paymentresult/{id}/{success}: where the card and crypto providers (and the demo provider)
 * send the buyer back. success 1: 'Payment Successful' and a button to the buyer's panel (the
 * payment is processed first, spec section 4); otherwise 'Payment Failed', 'Try again later', HOME.
 */
export default function PaymentResultPage() {
  const t = useT(CHECKOUT_TEXTS);
  const dispatch = useAppDispatch();
  const { id, success } = useParams();
  const userId = useAppSelector(selectUserId);
  const paid = success === '1';
  usePageMeta({ title: paid ? t('result.success') : t('result.failed'), robots: 'noindex' });

  const openPanel = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window (modifier keys, middle click) just follows the link.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    dispatch(subscriptionsRequested({ orderId: orderIdOf(id) }));
  };

  return (
    <Box data-testid="page-payment-result" data-order-id={id} maxW="2xl" mx="auto" px={{ base: '4', md: '6' }} py={{ base: '8', md: '12' }}>
      {paid ? (
        <ResultPanel testId="payment-result" success title={t('result.success')} lines={[t('result.successText'), t('result.activation')]}>
          {userId !== null ? (
            <Button asChild data-testid="payment-result-subscriptions" colorPalette="purple" size="lg">
              <a href={pagePath.user(userId)} onClick={openPanel}>
                {t('result.goToSubscriptions')}
              </a>
            </Button>
          ) : (
            <ButtonLink data-testid="payment-result-subscriptions" to={pagePath.login()} colorPalette="purple" size="lg">
              {t('result.goToSubscriptions')}
            </ButtonLink>
          )}
        </ResultPanel>
      ) : (
        <ResultPanel testId="payment-result" success={false} title={t('result.failed')} lines={[t('result.tryLater')]}>
          <ButtonLink data-testid="payment-result-home" to="/" colorPalette="purple" size="lg">
            {t('result.home')}
          </ButtonLink>
        </ResultPanel>
      )}
    </Box>
  );
}
