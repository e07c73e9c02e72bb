import { useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { Button } from '../../../components/plain/controls';
import { selectLanguage } from '../selectors';
import { useT } from '../useT';
import LanguageDialog from './LanguageDialog';
import styles from './LanguageToggle.module.css';

/** The EN / KO button in the navigation bar; opens the language dialog (both plain CSS, in the first download). */
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
        onClick={() => setOpen(true)}
      >
        {language.nameShort}
      </Button>
      {/* Unmounted when closed: no exit animation whose backdrop could swallow the next click. */}
      {open && <LanguageDialog onClose={() => setOpen(false)} />}
    </>
  );
}
