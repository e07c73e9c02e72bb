import { Text } from '@chakra-ui/react';
import { ButtonLink } from '../../../components/ui/links';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';

export default function NotFoundPage() {
  const t = useT();
  return (
    <Page testId="not-found" title={t('notFound.title')}>
      <Text mb="6">{t('notFound.text')}</Text>
      <ButtonLink to="/" colorPalette="purple">
        {t('common.backHome')}
      </ButtonLink>
    </Page>
  );
}
