import * as yup from 'yup';
import { currency, id, languageId } from './parse.js';

export const homeQuery = yup.object({ languageId: languageId.optional(), currency: currency.optional() });

export const getPlatformQuery = yup.object({
  id: id('id').required('id is required'),
  languageId: languageId.optional(),
  currency: currency.optional(),
});
