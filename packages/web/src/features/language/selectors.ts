import type { RootState } from '../../app/store';
import { getLanguage } from './languages';

export const selectLanguageId = (state: RootState) => state.language.languageId;
export const selectLanguageResolved = (state: RootState) => state.language.resolved;
export const selectLanguage = (state: RootState) => getLanguage(state.language.languageId);
