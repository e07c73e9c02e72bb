/**
 * The interface language. A stored choice is used at once; without one the language stays
 * unresolved (English shown) until the country lookup answers, and calls that depend on the
 * language wait for `languageResolved`.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { STORAGE_KEYS, readItem } from '../../services/storage';
import { DEFAULT_LANGUAGE_ID, toLanguageId, type LanguageId } from './languages';

export interface LanguageState {
  languageId: LanguageId;
  /** True once the language is known (stored, or answered by the country lookup). */
  resolved: boolean;
}

function initialState(): LanguageState {
  const stored = toLanguageId(readItem(STORAGE_KEYS.language));
  return stored ? { languageId: stored, resolved: true } : { languageId: DEFAULT_LANGUAGE_ID, resolved: false };
}

const languageSlice = createSlice({
  name: 'language',
  initialState,
  reducers: {
    languageResolved(state, action: PayloadAction<LanguageId>) {
      state.languageId = action.payload;
      state.resolved = true;
    },
    /** The visitor picked a language in the dialog; the saga stores it and reloads. */
    languageChosen(_state, _action: PayloadAction<LanguageId>) {},
  },
});

export const { languageResolved, languageChosen } = languageSlice.actions;
export const languageReducer = languageSlice.reducer;
