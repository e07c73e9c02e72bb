import { Text } from '@chakra-ui/react';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';

/**
 * /payssionpaymentresult?transaction_id&order_id: the Korean methods' return page. The
 * payment check (POST /api/payment/checksessionpayssion) arrives with the payment issue.
 */
export default function PayssionResultPage() {
  const t = useT();
  return (
    <Page testId="page-payssion-result" title={t('payment.title')}>
      <Text>{t('payment.checking')}</Text>
    </Page>
  );
}
