import { Text } from '@chakra-ui/react';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';

/** /user/{id}: profile and subscription lists arrive with the panel issue. */
export default function UserPanelPage() {
  const t = useT();
  return (
    <Page testId="page-user-panel" title={t('panel.title')}>
      <Text>{t('panel.preparing')}</Text>
    </Page>
  );
}
