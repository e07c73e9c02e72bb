import { useCallback } from 'react';
import { useAppSelector } from '../../app/hooks';
import { DICTIONARY, type DictionaryKey } from './dictionary';
import { selectLanguageId } from './selectors';
import { translate, type Texts, type Translate } from './texts';

/**
 * A table's texts in the interface language: `useT()` reads the shell's dictionary
 * (`t('nav.login')`), `useT(PANEL_TEXTS)` a feature's own (`t('panel.renew')`).
 */
export function useT(): Translate<DictionaryKey>;
export function useT<K extends string>(texts: Texts<K>): Translate<K>;
export function useT(texts: Texts<string> = DICTIONARY): Translate<string> {
  const languageId = useAppSelector(selectLanguageId);
  return useCallback((key, vars) => translate(texts, languageId, key, vars), [texts, languageId]);
}
