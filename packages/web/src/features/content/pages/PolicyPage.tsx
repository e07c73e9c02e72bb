import { Text } from '@chakra-ui/react';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';
import type { PolicyPage as Policy } from '../policies';

/** One policy page; the full texts come with the content issue, the route and title exist now. */
export default function PolicyPage({ policy }: { policy: Policy }) {
  const t = useT();
  return (
    <Page testId={`page-${policy.path}`} title={t(policy.title)}>
      <Text>{t(policy.summary)}</Text>
    </Page>
  );
}
