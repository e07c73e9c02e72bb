import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Button } from '../../../components/plain/controls';
import { useT } from '../../language/useT';
import { selectSnackbar } from '../selectors';
import { snackbarClosed, snackbarHeld, snackbarReleased } from '../slice';
import styles from './Snackbar.module.css';

/**
 * The snackbar of spec section 8: the message and a 'close' action at the bottom of the
 * screen. Drawn by hand in plain CSS (no toast machinery in the first download); the shell
 * saga hides it after SNACKBAR_DURATION_MS. The live regions exist before any message arrives, so screen
 * readers announce what is put into them.
 */
export function SnackbarHost() {
  const t = useT();
  const dispatch = useAppDispatch();
  const snackbar = useAppSelector(selectSnackbar);
  const error = snackbar?.tone === 'error' ? snackbar : null;
  const info = snackbar?.tone === 'info' ? snackbar : null;

  const render = (current: NonNullable<typeof snackbar>) => (
    <div
      key={current.id}
      data-testid="snackbar"
      data-tone={current.tone}
      className={styles.snackbar}
      onPointerEnter={() => dispatch(snackbarHeld(current.id))}
      onPointerLeave={() => dispatch(snackbarReleased(current.id))}
      onFocus={() => dispatch(snackbarHeld(current.id))}
      onBlur={() => dispatch(snackbarReleased(current.id))}
    >
      <p data-testid="snackbar-message" className={styles.message}>
        {current.message}
      </p>
      <Button data-testid="snackbar-close" size="sm" variant="ghost" className={styles.close} onClick={() => dispatch(snackbarClosed(current.id))}>
        {t('snackbar.close')}
      </Button>
    </div>
  );

  return (
    <div className={styles.host}>
      <div role="alert" aria-live="assertive" aria-atomic="true" className={styles.region}>
        {error && render(error)}
      </div>
      <div role="status" aria-live="polite" aria-atomic="true" className={styles.region}>
        {info && render(info)}
      </div>
    </div>
  );
}
