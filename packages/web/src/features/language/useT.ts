import { useCallback } from 'react';
import { useAppSelector } from '../../app/hooks';
import { translate, type DictionaryKey, type TranslateVars } from './dictionary';
import { selectDictionary } from './selectors';

export type Translate = (key: DictionaryKey, vars?: TranslateVars) => string;

/** The current language's text lookup: `t('nav.login')`, `t('support.phone', { phone })`. */
export function useT(): Translate {
  const dictionary = useAppSelector(selectDictionary);
  return useCallback((key, vars) => translate(dictionary, key, vars), [dictionary]);
}
