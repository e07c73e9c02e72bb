import * as yup from 'yup';

export { validate as parse } from '@subshare/core';

/** A positive integer id given as a query string value. */
export const id = (label: string) =>
  yup
    .number()
    .typeError(`${label} must be a number`)
    .integer(`${label} must be a whole number`)
    .min(1, `${label} must be positive`)
    .max(2_147_483_647, `${label} is too large`);

export const languageId = yup.number().typeError('languageId must be 1 or 2').oneOf([1, 2], 'languageId must be 1 or 2');
export const currency = yup.string().uppercase().oneOf(['EUR', 'KRW'], 'currency must be EUR or KRW');
