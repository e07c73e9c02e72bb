import { DISPLAY_CHOICE_PATH, DISPLAY_FIELDS } from '@subshare/core/storefront';
import { useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { buttonClass } from '../../../components/plain/controls';
import { Disclosure } from '../../../components/plain/Disclosure';
import { LANGUAGES } from '../languages';
import { selectLanguage } from '../selectors';
import { languageChosen } from '../slice';
import { useT } from '../useT';
import styles from './LanguageToggle.module.css';

/**
 * The EN / KO chooser of the navigation bar (spec: English and Korean; a choice is stored and the
 * page reloads). Plain HTML first: a <details> that opens by itself, holding a form posted to the
 * server (DISPLAY_CHOICE_PATH), which stores the choice in the display cookie and sends the
 * visitor back to this page, now in that language. Once scripted, a choice is stored by the app
 * (localStorage and the cookie) and the page reloads, as before.
 */
export function LanguageToggle() {
  const t = useT();
  const dispatch = useAppDispatch();
  const language = useAppSelector(selectLanguage);
  const location = useLocation();

  return (
    <Disclosure
      testId="language-chooser"
      summaryTestId="language-toggle"
      panelTestId="language-dialog"
      summary={language.nameShort}
      // The accessible name starts with the visible label (WCAG 2.5.3, "label in name").
      summaryLabel={`${language.nameShort}, ${t('language.toggle', { name: language.name })}`}
      summaryClassName={styles.toggle}
    >
      <form method="post" action={DISPLAY_CHOICE_PATH} className={styles.form}>
        <input type="hidden" name={DISPLAY_FIELDS.returnTo} value={location.pathname + location.search} />
        <p className={styles.title}>{t('language.title')}</p>
        {LANGUAGES.map((option) => (
          <button
            key={option.id}
            type="submit"
            name={DISPLAY_FIELDS.language}
            value={option.culture}
            data-testid={`language-option-${option.culture}`}
            lang={option.culture}
            aria-current={option.id === language.id ? 'true' : undefined}
            className={buttonClass({ size: 'md', variant: option.id === language.id ? 'solid' : 'outline' })}
            onClick={(event) => {
              // Scripted: the app stores the choice and reloads (language saga); no round trip.
              event.preventDefault();
              dispatch(languageChosen(option.id));
            }}
          >
            {option.name}
          </button>
        ))}
      </form>
    </Disclosure>
  );
}
