import { Suspense, lazy, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { ChakraBoundary, preloadChakra } from '../../../app/chakra/ChakraBoundary';
import { Button } from '../../../components/plain/controls';
import { selectLanguage } from '../selectors';
import { useT } from '../useT';
import styles from './LanguageToggle.module.css';

// The dialog (and Chakra with its dialog machinery) loads on first use, not with the storefront.
const loadDialog = () => import('./LanguageDialog');
const LanguageDialog = lazy(loadDialog);
const preload = () => void Promise.all([loadDialog(), preloadChakra()]).catch(() => undefined);

/** The EN / KO button in the navigation bar (plain CSS); opens the language dialog (Chakra). */
export function LanguageToggle() {
  const t = useT();
  const language = useAppSelector(selectLanguage);
  const [open, setOpen] = useState(false);

  return (
    <>
      <Button
        data-testid="language-toggle"
        variant="outline"
        size="sm"
        className={styles.toggle}
        // The accessible name starts with the visible label (WCAG 2.5.3, "label in name").
        aria-label={`${language.nameShort}, ${t('language.toggle', { name: language.name })}`}
        aria-haspopup="dialog"
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => setOpen(true)}
      >
        {language.nameShort}
      </Button>
      {/* Unmounted when closed: no exit animation whose backdrop could swallow the next click. */}
      {open && (
        <Suspense fallback={null}>
          <ChakraBoundary>
            <LanguageDialog onClose={() => setOpen(false)} />
          </ChakraBoundary>
        </Suspense>
      )}
    </>
  );
}
