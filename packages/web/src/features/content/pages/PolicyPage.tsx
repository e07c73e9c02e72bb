import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';
import { BusinessDetails } from '../components/BusinessDetails';
import { ContentSections } from '../components/ContentSections';
import type { PolicyPage as Policy } from '../policies';
import { useContent } from '../useContent';

/** About us and the policy pages: intro and sections in the interface language; about us adds the business details. */
export default function PolicyPage({ policy }: { policy: Policy }) {
  const t = useT();
  const { texts, fill } = useContent();
  const doc = texts[policy.key];
  return (
    <Page testId={`page-${policy.key}`} title={t(policy.title)} intro={fill(doc.intro) ?? undefined} indexable>
      <ContentSections sections={doc.sections} fill={fill} />
      {policy.key === 'aboutus' && <BusinessDetails />}
    </Page>
  );
}
