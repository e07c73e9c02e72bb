import { useEffect, useRef } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { Button } from '../../../components/plain/controls';
import { LANGUAGES } from '../languages';
import { languageChosen } from '../slice';
import { useT } from '../useT';
import styles from './LanguageDialog.module.css';

interface LanguageDialogProps {
  onClose: () => void;
}

/**
 * Spec: a 400px dialog with the buttons English and Korean; a choice is stored and the page
 * reloads. A native modal <dialog> in plain CSS, in the first download: it opens at the first
 * click, with no chunk or Chakra to wait for (issue 14). The browser gives it focus trapping,
 * Escape to close and the backdrop.
 */
export default function LanguageDialog({ onClose }: LanguageDialogProps) {
  const t = useT();
  const dispatch = useAppDispatch();
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  return (
    <dialog
      ref={dialog}
      data-testid="language-dialog"
      aria-labelledby="language-dialog-title"
      className={styles.dialog}
      onClose={onClose}
      // A click on the backdrop (the dialog element itself, outside its content) closes it.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className={styles.content}>
        <h2 id="language-dialog-title" className={styles.title}>
          {t('language.title')}
        </h2>
        <div className={styles.options}>
          {LANGUAGES.map((language) => (
            <Button
              key={language.id}
              data-testid={`language-option-${language.culture}`}
              lang={language.culture}
              variant="outline"
              size="xl"
              onClick={() => dispatch(languageChosen(language.id))}
            >
              {language.name}
            </Button>
          ))}
        </div>
        <button type="button" className={styles.close} aria-label={t('common.close')} onClick={onClose}>
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>
    </dialog>
  );
}
