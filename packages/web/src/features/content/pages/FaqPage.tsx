import { pagePath } from '@subshare/core/pages';
import { Text } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { FaqList } from '../../../components/ui/FaqList';
import { RouterLink } from '../../../components/ui/links';
import { Page } from '../../../components/ui/Page';
import { selectLanguageId } from '../../language/selectors';
import { useT } from '../../language/useT';
import { useContent } from '../useContent';

/** /faq: the shop's own frequently asked questions; each opens on its own, all start closed. */
export default function FaqPage() {
  const t = useT();
  const { texts, fill } = useContent();
  const languageId = useAppSelector(selectLanguageId);
  const items = texts.faq.items.map((item) => ({ question: item.question, answer: fill(item.answer) ?? item.answer }));

  return (
    <Page
      testId="page-faq"
      title={t('page.faq')}
      intro={texts.faq.intro}
      description={[texts.faq.intro, ...texts.faq.items.map((item) => item.question)].join(' ')}
      indexable
    >
      <FaqList key={languageId} items={items} headingLevel={2} />
      <Text mt="8">
        {texts.faq.moreHelp}{' '}
        <RouterLink data-testid="faq-support-link" to={pagePath.support()} fontWeight="medium">
          {texts.faq.supportLink}
        </RouterLink>
      </Text>
    </Page>
  );
}
