/**
 * Building blocks of the wire schemas: the field rules that many calls share. Pure yup, like
 * everything under wire/, so the web client can import it too.
 *
 * Answer fields use `.defined()` rather than `.required()`: an answer's empty string is a value,
 * and `.required()` would refuse it.
 *
 * `.meta()` only on a schema that has none yet: yup's clones share the meta object, so meta on a
 * derived schema would change the one it came from.
 */
import * as yup from 'yup';

/** Whole numbers go to PostgreSQL `integer` columns (ids, counts, states, pages). */
export const INTEGER_MAX = 2_147_483_647;

/** A positive integer id (a query string value is cast from its text). */
export const id = (label: string) =>
  yup
    .number()
    .typeError(`${label} must be a number`)
    .integer(`${label} must be a whole number`)
    .min(1, `${label} must be positive`)
    .max(INTEGER_MAX, `${label} is too large`);

/** One of `values`, typed as such (yup narrows `oneOf` for strings only). */
export const numberOf = <T extends number>(values: readonly T[], message?: string, schema = yup.number()) =>
  schema.oneOf(values, message) as unknown as yup.NumberSchema<T | undefined>;

export const languageId = numberOf([1, 2] as const, 'languageId must be 1 or 2', yup.number().typeError('languageId must be 1 or 2'));

export const currency = yup
  .string()
  .uppercase()
  .oneOf(['EUR', 'KRW'] as const, 'currency must be EUR or KRW');

// Answers: what the server sends, declared so that the OpenAPI document and the web's types come from it.

export const integer = () => yup.number().integer().defined();
export const text = () => yup.string().defined();
export const flag = () => yup.boolean().defined();
/** An ISO 8601 date-time string (JSON has no dates; the web reads strings, not Date objects). */
export const dateTime = () => yup.string().meta({ format: 'date-time' }).defined();
/** A list of `item`s. */
// Typed through the item's output type: a `T extends yup.Schema` parameter would make every list `any[]`.
export const list = <T>(item: yup.Schema<T>) => yup.array(item.defined() as yup.Schema<Exclude<T, undefined>>).defined();
/** `true`: the call did what it was asked (the spec's answer for calls that only act). */
export const done = () =>
  yup
    .boolean()
    .oneOf([true] as const)
    .defined();
