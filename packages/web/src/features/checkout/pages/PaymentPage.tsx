import { useEffect } from 'react';
import { Box, Button, Checkbox, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ButtonLink } from '../../../components/ui/links';
import { usePageMeta } from '../../../components/ui/usePageMeta';
import { OrderSummary } from '../components/OrderSummary';
import { PAYMENT_METHOD } from '../../../services/api/payment';
import { PaymentMethods } from '../components/PaymentMethods';
import { PromoCode } from '../components/PromoCode';
import {
  selectAutoRenewAvailable,
  selectCreditPlan,
  selectMethod,
  selectMethods,
  selectOrder,
  selectOrderRetryable,
  selectOrderStatus,
  selectPaying,
  selectPromo,
  selectRenewAutomatically,
  selectRenewsAutomatically,
  selectUseCredit,
} from '../selectors';
import {
  methodChosen,
  orderRequested,
  payRequested,
  paymentPageClosed,
  paymentPageOpened,
  paymentPageRestored,
  renewAutomaticallyChanged,
  useCreditChanged,
} from '../slice';
import { CHECKOUT_TEXTS } from '../texts';
import { useT } from '../../language/useT';
import { formatPrice } from '../../catalog/rules';
import { selectLanguage } from '../../language/selectors';

/**
 * /payment (logged in, verified e-mail; spec sections 2 and 4): creates the order on load from
 * the platform page's choice, then shows it with its payment methods and Pay now.
 */
export default function PaymentPage() {
  const t = useT(CHECKOUT_TEXTS);
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectOrderStatus);
  const order = useAppSelector(selectOrder);
  const orderRetryable = useAppSelector(selectOrderRetryable);
  usePageMeta({ title: t('payment.title'), robots: 'noindex' });

  useEffect(() => {
    dispatch(paymentPageOpened());
    return () => {
      dispatch(paymentPageClosed());
    };
  }, [dispatch]);

  // Back from the provider's page with the browser's back button: the page comes back as it was
  // left (back/forward cache), Pay now disabled; the buyer may choose and pay again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) dispatch(paymentPageRestored());
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [dispatch]);

  return (
    <Box
      data-testid="page-payment"
      data-status={status === 'idle' ? 'creating' : status}
      data-order-id={order?.id}
      maxW="3xl"
      mx="auto"
      px={{ base: '4', md: '6' }}
      py={{ base: '8', md: '12' }}
    >
      <Heading as="h1" size={{ base: '2xl', md: '3xl' }} mb="6">
        {t('payment.title')}
      </Heading>
      {status === 'failed' ? (
        <Stack data-testid="payment-failed" role="alert" gap="4" align="flex-start" p="5" borderRadius="lg" bg="bg.error">
          <Text>{t(orderRetryable ? 'payment.failed' : 'payment.refused')}</Text>
          <HStack gap="3" wrap="wrap">
            {orderRetryable && (
              <Button data-testid="payment-retry" colorPalette="purple" onClick={() => dispatch(orderRequested())}>
                {t('payment.retry')}
              </Button>
            )}
            <ButtonLink data-testid="payment-back-home" to="/" variant="outline">
              {t('payment.backToShop')}
            </ButtonLink>
          </HStack>
        </Stack>
      ) : order ? (
        <OrderDetails />
      ) : (
        <HStack data-testid="payment-creating" role="status" gap="3" py="6" color="fg.muted">
          <Spinner size="sm" color="purple.600" />
          <Text>{t('payment.creating')}</Text>
        </HStack>
      )}
    </Box>
  );
}

function OrderDetails() {
  const t = useT(CHECKOUT_TEXTS);
  const dispatch = useAppDispatch();
  const order = useAppSelector(selectOrder)!;
  const methods = useAppSelector(selectMethods);
  const method = useAppSelector(selectMethod);
  const paying = useAppSelector(selectPaying);
  const invitation = order.items.some((item) => item.haveInvitation);
  const autoRenew = useAppSelector(selectAutoRenewAvailable) && method === PAYMENT_METHOD.card;
  const renew = useAppSelector(selectRenewAutomatically);
  // Not while a code is being applied: the amount to pay may change.
  const applying = useAppSelector(selectPromo).applying;
  const credit = useAppSelector(selectCreditPlan);
  const useCredit = useAppSelector(selectUseCredit);
  const renews = useAppSelector(selectRenewsAutomatically);
  const { culture } = useAppSelector(selectLanguage);

  return (
    <Stack gap="8">
      <OrderSummary order={order} credit={credit} />
      {credit?.offered && (
        <Stack gap="1" data-testid="payment-credit-choice">
          <Checkbox.Root checked={useCredit} disabled={paying} onCheckedChange={(details) => void dispatch(useCreditChanged(details.checked === true))}>
            <Checkbox.HiddenInput data-testid="payment-use-credit" />
            <Checkbox.Control />
            <Checkbox.Label data-testid="payment-use-credit-label">
              {t('payment.credit.use', { amount: formatPrice(credit.available, order.currencyCode, culture) })}
            </Checkbox.Label>
          </Checkbox.Root>
          {useCredit && renews && (
            <Text data-testid="payment-credit-kept" fontSize="sm" color="fg.muted">
              {t('payment.credit.keptForRenewals')}
            </Text>
          )}
        </Stack>
      )}
      <PromoCode />
      <PaymentMethods methods={methods} selected={method} disabled={paying} onSelect={(id) => dispatch(methodChosen(id))} />
      {autoRenew && (
        <Stack gap="1" data-testid="payment-autorenew">
          <Checkbox.Root checked={renew} disabled={paying} onCheckedChange={(details) => void dispatch(renewAutomaticallyChanged(details.checked === true))}>
            <Checkbox.HiddenInput data-testid="payment-autorenew-checkbox" />
            <Checkbox.Control />
            <Checkbox.Label>{t('payment.renewAutomatically')}</Checkbox.Label>
          </Checkbox.Root>
          <Text fontSize="sm" color="fg.muted">
            {t('payment.renewAutomaticallyNote')}
          </Text>
        </Stack>
      )}
      <Stack gap="3">
        <Button
          data-testid="payment-pay"
          data-covered-by-credit={credit?.coversAll ? 'true' : undefined}
          size="xl"
          w="full"
          colorPalette="purple"
          disabled={paying || applying || method === null}
          onClick={() => dispatch(payRequested())}
        >
          {t(credit?.coversAll ? 'payment.payWithCredit' : 'payment.payNow')}
        </Button>
        <Text data-testid="payment-activation" fontSize="sm" color="fg.muted">
          {t('payment.activation')}
        </Text>
        {invitation && (
          <Text
            data-testid="payment-invitation-note"
            fontSize="sm"
            p="3"
            borderRadius="md"
            bg="orange.50"
            color="orange.900"
            borderWidth="1px"
            borderColor="orange.200"
          >
            {t('payment.invitation')}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
