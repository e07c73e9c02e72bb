import { Text } from '@chakra-ui/react';
import { ButtonLink } from '../../../components/ui/links';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';

interface NotFoundPageProps {
  /** What was not found: any page (unknown route) or a platform (unknown or malformed /platform/{id}). */
  kind?: 'page' | 'platform';
}

/** A proper not-found page: says so, links home, and keeps itself out of search results. */
export default function NotFoundPage({ kind = 'page' }: NotFoundPageProps) {
  const t = useT();
  const platform = kind === 'platform';
  return (
    <Page testId="page-not-found" title={t(platform ? 'platform.notFoundTitle' : 'notFound.title')} noindex>
      <Text data-testid="not-found-kind" data-kind={kind} mb="6">
        {t(platform ? 'platform.notFoundText' : 'notFound.text')}
      </Text>
      <ButtonLink data-testid="not-found-home" to="/" colorPalette="purple">
        {t('common.backHome')}
      </ButtonLink>
    </Page>
  );
}
