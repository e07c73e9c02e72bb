/** The shell's texts (navigation, home, login, forms…), in the first download. */
import { defineTexts } from '../texts.js';
import { en, type DictionaryKey } from './en.js';
import { ko } from './ko.js';

export type { DictionaryKey };

export const DICTIONARY = defineTexts<DictionaryKey>(en, ko);
