import { Text } from '@chakra-ui/react';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';

/** /login: the check → login / register → e-mail verification steps arrive with the login issue. */
export default function LoginPage() {
  const t = useT();
  return (
    <Page testId="page-login" title={t('login.title')}>
      <Text>{t('login.preparing')}</Text>
    </Page>
  );
}
