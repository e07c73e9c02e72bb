import { Suspense, lazy, useState } from 'react';
import { Button } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { selectLanguage } from '../selectors';
import { useT } from '../useT';

// The dialog (and Chakra's dialog machinery) loads on first use, not with the storefront.
const loadDialog = () => import('./LanguageDialog');
const LanguageDialog = lazy(loadDialog);

/** The EN / KO button in the navigation bar; opens the language dialog. */
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
        minW="12"
        // The accessible name starts with the visible label (WCAG 2.5.3, "label in name").
        aria-label={`${language.nameShort}, ${t('language.toggle', { name: language.name })}`}
        aria-haspopup="dialog"
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => setOpen(true)}
      >
        {language.nameShort}
      </Button>
      {/* Unmounted when closed: no exit animation whose backdrop could swallow the next click. */}
      {open && (
        <Suspense fallback={null}>
          <LanguageDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
