import { Text } from '@chakra-ui/react';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';

/** /naver/callback?code&state: the code exchange arrives with the social-login issue. */
export default function NaverCallbackPage() {
  const t = useT();
  return (
    <Page testId="page-naver-callback" title={t('login.title')}>
      <Text>{t('naver.loggingIn')}</Text>
    </Page>
  );
}
