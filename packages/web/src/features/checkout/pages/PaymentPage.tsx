import { Text } from '@chakra-ui/react';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';

/** /payment (logged in, verified e-mail). Order creation and methods arrive with the payment issue. */
export default function PaymentPage() {
  const t = useT();
  return (
    <Page testId="page-payment" title={t('payment.title')}>
      <Text>{t('payment.preparing')}</Text>
    </Page>
  );
}
