import * as yup from 'yup';
import { ValidationError } from '@subshare/core';

/**
 * Validates and converts a request's query or body against a yup schema. Unknown fields are
 * dropped; every problem is reported per field in one 400 answer.
 */
export function parse<S extends yup.AnySchema>(schema: S, input: unknown): yup.InferType<S> {
  try {
    return schema.validateSync(input ?? {}, { abortEarly: false, stripUnknown: true }) as yup.InferType<S>;
  } catch (error) {
    if (error instanceof yup.ValidationError) {
      const errors: Record<string, string> = {};
      for (const inner of error.inner.length ? error.inner : [error]) {
        const field = inner.path || '_';
        errors[field] ??= inner.message;
      }
      throw new ValidationError('Some fields are missing or invalid.', errors);
    }
    throw error;
  }
}

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
