import { useEffect } from 'react';
import { useAppDispatch, useAppStore } from '../../../app/hooks';
import { usePageMeta } from '../../../components/ui/usePageMeta';
import { useT } from '../../language/useT';
import { HeroArt } from '../components/HeroArt';
import { LogoCarousel } from '../components/LogoCarousel';
import { PlatformGrid } from '../components/PlatformGrid';
import { selectHomeStatus } from '../selectors';
import { homeRequested } from '../slice';
import styles from './HomePage.module.css';

export default function HomePage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  usePageMeta({ title: null, fullTitle: t('meta.homeTitle'), description: t('home.subslogan'), robots: 'index' });

  // The catalog changes rarely: load it once per page load, and again after a failure. The
  // status is read on arrival only, so a failing server is not retried in a loop.
  useEffect(() => {
    const status = selectHomeStatus(store.getState());
    if (status === 'idle' || status === 'failed') dispatch(homeRequested());
  }, [dispatch, store]);

  return (
    <div data-testid="page-home" className={styles.page}>
      <section data-testid="home-hero" className={styles.hero}>
        <div className={styles.intro}>
          <h1 data-testid="home-slogan" className={styles.slogan}>
            {t('home.slogan')}
          </h1>
          <p className={styles.subslogan}>{t('home.subslogan')}</p>
          <p className={styles.promise}>{t('home.promise')}</p>
        </div>
        <div className={styles.art}>
          <HeroArt />
        </div>
      </section>

      <LogoCarousel />

      <section aria-labelledby="home-platforms" className={styles.platforms}>
        <h2 id="home-platforms" className={styles.platformsTitle}>
          {t('home.platforms')}
        </h2>
        <PlatformGrid />
      </section>
    </div>
  );
}
