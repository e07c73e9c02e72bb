import type * as yup from 'yup';
import { ValidationError as YupValidationError } from 'yup';
import { ValidationError } from './errors.js';

/** Validates input against a yup schema (unknown fields dropped); every problem is reported per field in one ValidationError (HTTP 400). */
export function validate<S extends yup.AnySchema>(schema: S, input: unknown): yup.InferType<S> {
  try {
    return schema.validateSync(input ?? {}, { abortEarly: false, stripUnknown: true }) as yup.InferType<S>;
  } catch (error) {
    if (error instanceof YupValidationError) {
      const errors: Record<string, string> = {};
      for (const inner of error.inner.length ? error.inner : [error]) errors[inner.path || '_'] ??= inner.message;
      throw new ValidationError('Some fields are missing or invalid.', errors);
    }
    throw error;
  }
}
