import { Link, Stack, Text } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { Page } from '../../../components/ui/Page';
import { selectBusiness } from '../../business/selectors';
import { useT } from '../../language/useT';

export default function SupportPage() {
  const t = useT();
  const business = useAppSelector(selectBusiness);

  return (
    <Page testId="page-support" title={t('page.support')}>
      <Stack gap="3">
        <Text>{t('support.intro')}</Text>
        {business?.supportPhone && (
          <Text data-testid="support-phone">
            {t('footer.phone')}: <Link href={`tel:${business.supportPhone.replace(/[^+\d]/g, '')}`}>{business.supportPhone}</Link>
          </Text>
        )}
        {business?.supportEmail && (
          <Text data-testid="support-email">
            {t('footer.email')}: <Link href={`mailto:${business.supportEmail}`}>{business.supportEmail}</Link>
          </Text>
        )}
      </Stack>
    </Page>
  );
}
