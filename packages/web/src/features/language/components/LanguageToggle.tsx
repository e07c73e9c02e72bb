import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { DisplayChoiceMenu } from '../../../components/plain/DisplayChoiceMenu';
import { LANGUAGES } from '../languages';
import { selectLanguage } from '../selectors';
import { languageChosen } from '../slice';
import { useT } from '../useT';
import styles from './LanguageToggle.module.css';

/**
 * The EN / KO chooser of the navigation bar (spec: English and Korean; a choice is stored and the
 * page reloads), posted to the server before script. Once scripted, the app stores the choice
 * (localStorage and the cookie) and reloads (language saga), as before.
 */
export function LanguageToggle() {
  const t = useT();
  const dispatch = useAppDispatch();
  const language = useAppSelector(selectLanguage);

  return (
    <DisplayChoiceMenu
      setting="language"
      panelTestId="language-dialog"
      summary={language.nameShort}
      summaryLabel={`${language.nameShort}, ${t('language.toggle', { name: language.name })}`}
      summaryClassName={styles.toggle}
      title={t('language.title')}
      choices={LANGUAGES.map((option) => ({ value: option.culture, label: option.name, current: option.id === language.id, lang: option.culture }))}
      onChoose={(culture) => {
        const chosen = LANGUAGES.find((option) => option.culture === culture);
        if (chosen) dispatch(languageChosen(chosen.id));
      }}
    />
  );
}
