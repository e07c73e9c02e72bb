import { useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { selectHomeStatus, selectPlatforms } from '../selectors';
import { PlatformCard } from './PlatformCard';
import styles from './PlatformGrid.module.css';

export function PlatformGrid() {
  const t = useT();
  const platforms = useAppSelector(selectPlatforms);
  const status = useAppSelector(selectHomeStatus);

  if (platforms.length === 0) {
    // While loading, the overlay speaks; afterwards an empty catalog gets a sentence.
    if (status === 'loading' || status === 'idle') return null;
    return (
      <p data-testid="platform-grid-empty" className={styles.empty}>
        {t('home.empty')}
      </p>
    );
  }
  return (
    <div data-testid="platform-grid" className={styles.grid}>
      {platforms.map((platform) => (
        <PlatformCard key={platform.id} platform={platform} />
      ))}
    </div>
  );
}
