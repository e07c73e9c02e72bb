import { Stack, Text } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { ButtonLink } from '../../../components/ui/links';
import { Page } from '../../../components/ui/Page';
import { selectUserId } from '../../auth/selectors';
import { useT } from '../../language/useT';

/** /paymentresult/{id}/{success}: where the card and crypto providers send the buyer back. */
export default function PaymentResultPage() {
  const t = useT();
  const { success } = useParams();
  const userId = useAppSelector(selectUserId);

  if (success === '1') {
    return (
      <Page testId="page-payment-result" title={t('payment.success')}>
        <Stack gap="6" align="flex-start">
          <Text data-testid="payment-result" data-success="true">
            {t('payment.successText')}
          </Text>
          <ButtonLink data-testid="payment-result-subscriptions" to={userId ? `/user/${userId}` : '/login'} colorPalette="purple">
            {t('payment.goToSubscriptions')}
          </ButtonLink>
        </Stack>
      </Page>
    );
  }
  return (
    <Page testId="page-payment-result" title={t('payment.failed')}>
      <Stack gap="6" align="flex-start">
        <Text data-testid="payment-result" data-success="false">
          {t('payment.tryLater')}
        </Text>
        <ButtonLink data-testid="payment-result-home" to="/" colorPalette="purple">
          {t('payment.home')}
        </ButtonLink>
      </Stack>
    </Page>
  );
}
