import { useAppSelector } from '../../../app/hooks';
import { controlStyles } from '../../../components/plain/controls';
import { Logo } from '../../../components/ui/Logo';
import { useT } from '../../language/useT';
import { selectIsLoading } from '../selectors';
import styles from './LoadingOverlay.module.css';

/** Full-screen overlay with a 160px spinner around the logo (spec section 2 and 9). */
export function FullScreenLoader({ testId = 'loading-overlay' }: { testId?: string }) {
  const t = useT();
  return (
    <div data-testid={testId} role="status" aria-live="polite" className={styles.overlay}>
      <div className={styles.frame}>
        <span className={styles.spinner} />
        <div className={styles.center}>
          <Logo markOnly height={56} />
        </div>
      </div>
      <span className={controlStyles.srOnly}>{t('app.loading')}</span>
    </div>
  );
}

/** Shown while any request is in flight. */
export function LoadingOverlay() {
  const isLoading = useAppSelector(selectIsLoading);
  return isLoading ? <FullScreenLoader /> : null;
}
