import { LinkButton } from '../../../components/plain/controls';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';
import styles from './NotFoundPage.module.css';

interface NotFoundPageProps {
  /** What was not found: any page (unknown route) or a platform (unknown or malformed /platform/{id}). */
  kind?: 'page' | 'platform';
}

/** A proper not-found page: says so, links home, and keeps itself out of search results. Plain CSS, no Chakra. */
export default function NotFoundPage({ kind = 'page' }: NotFoundPageProps) {
  const t = useT();
  const platform = kind === 'platform';
  return (
    <Page testId="page-not-found" title={t(platform ? 'platform.notFoundTitle' : 'notFound.title')} noindex>
      <p data-testid="not-found-kind" data-kind={kind} className={styles.text}>
        {t(platform ? 'platform.notFoundText' : 'notFound.text')}
      </p>
      <LinkButton data-testid="not-found-home" to="/">
        {t('common.backHome')}
      </LinkButton>
    </Page>
  );
}
