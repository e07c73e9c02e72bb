/**
 * The one gate that input passes before any rule looks at it. Every HTTP call, the CLI and the
 * worker validate through `validate`, so hostile input is answered the same way everywhere:
 * a 400 with per-field messages, never a 500 from deep inside yup or the database.
 *
 * yup casts and transforms before it checks (`.trim()` calls `val.trim()` on whatever came in;
 * `{"$ne":null}` or `["a","b"]` where an e-mail belongs throws a TypeError), its object schema
 * looks fields up by key (`__proto__` and `constructor` find Object.prototype's members) and
 * it recurses without a bound. So the raw input is checked first, against the schema's own
 * description: the right JSON type for every declared field (numbers and booleans may be cast
 * from a string only, as query strings are strings; text may come as a plain number), text without NUL or other control bytes
 * and without broken UTF-16, whole numbers within what an id or count can be, no prototype keys
 * and no deep nesting anywhere.
 */
import type * as yup from 'yup';
import { ValidationError as YupValidationError } from 'yup';
import { ValidationError, fail } from './errors.js';

/** Far deeper than any call's input; JSON nested deeper is refused before anything walks it recursively. */
export const MAX_INPUT_DEPTH = 32;
/** Keys that reach Object.prototype through plain property access. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Whole numbers go to PostgreSQL `integer` columns (ids, counts, states, pages). */
const INTEGER_MAX = 2_147_483_647;
// C0 controls except tab, line feed and carriage return, and DEL: never part of an e-mail, password, code or name.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NUMERIC = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/;
const BOOLEAN = /^(true|false|1|0)$/i;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Refuses prototype keys and nesting deeper than MAX_INPUT_DEPTH anywhere in `input`, without
 * recursion (a 5,000-deep array must not overflow the stack here either). The HTTP layer runs it
 * on every parsed body and query; `validate` runs it again for every other caller.
 */
export function assertSafeInput(input: unknown): void {
  const stack: Array<[unknown, number]> = [[input, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_INPUT_DEPTH) throw fail('too_deep');
    for (const key of Object.keys(value)) {
      if (PROTOTYPE_KEYS.has(key)) throw new ValidationError(`The request uses a key that is not allowed: ${key}.`, undefined, 'forbidden_key');
      stack.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
}

function textProblem(text: string): string | undefined {
  if (CONTROL.test(text)) return 'must not contain control characters';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text';
  return undefined;
}

function numberProblem(value: unknown, description: yup.SchemaDescription): string | undefined {
  if (typeof value === 'string' && !NUMERIC.test(value)) return 'must be a number';
  if (typeof value !== 'string' && typeof value !== 'number') return 'must be a number';
  const number = Number(value);
  if (!Number.isFinite(number)) return 'must be a number';
  const integer = description.tests.some((test) => test.name === 'integer');
  if (integer && Math.abs(number) > INTEGER_MAX) return 'is too large';
  if (!integer && Math.abs(number) > Number.MAX_SAFE_INTEGER) return 'is too large';
  return undefined;
}

/**
 * Checks one raw value against its described type. A problem is recorded per field; the value
 * comes back with every wrong-typed field taken out, so the schema's own rules still report
 * on the rest. `undefined` and `null` are left to the schema's required/nullable rules, and so
 * is an empty query value (`?state=`), which some schemas read as "not given".
 */
function checkTypes(value: unknown, description: yup.SchemaDescription, path: string, errors: Record<string, string>): unknown {
  if (value === undefined || value === null) return value;
  const fail = (problem: string) => {
    errors[path || '_'] ??= `${path || 'The request'} ${problem}.`;
    return undefined;
  };
  switch (description.type) {
    case 'string': {
      // A number is safe to read as text (the spec's client sends order ids as numbers where the schema keeps text).
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value !== 'string') return fail('must be text');
      const problem = textProblem(value);
      return problem ? fail(problem) : value;
    }
    case 'number': {
      if (typeof value === 'string' && value.trim() === '') return value;
      const problem = numberProblem(value, description);
      return problem ? fail(problem) : value;
    }
    case 'boolean':
      if (typeof value === 'string' && value.trim() === '') return value;
      return typeof value === 'boolean' || (typeof value === 'string' && BOOLEAN.test(value)) ? value : fail('must be true or false');
    case 'object': {
      if (!isPlainObject(value)) return fail('must be an object');
      const fields = (description as yup.SchemaObjectDescription).fields ?? {};
      const checked: Record<string, unknown> = { ...value };
      for (const [name, field] of Object.entries(fields)) {
        if (Object.hasOwn(value, name) && 'type' in field)
          checked[name] = checkTypes(value[name], field as yup.SchemaDescription, path ? `${path}.${name}` : name, errors);
      }
      return checked;
    }
    case 'array': {
      if (!Array.isArray(value)) return fail('must be a list');
      const inner = (description as yup.SchemaInnerTypeDescription).innerType;
      if (!inner || Array.isArray(inner) || !('type' in inner)) return value;
      return value.map((item, index) => checkTypes(item, inner as yup.SchemaDescription, `${path}[${index}]`, errors));
    }
    default:
      // mixed, date, lazy: the schema's own rules decide.
      return value;
  }
}

/**
 * The schema's description for this input. yup builds it afresh on every call, and that cost
 * as much as the validation itself on every order; a schema whose shape cannot depend on the
 * value (no `when`, no `lazy`, anywhere inside) has one description, kept here.
 */
const fixedDescriptions = new WeakMap<yup.AnySchema, yup.SchemaDescription | null>();

function descriptionOf(schema: yup.AnySchema, input: unknown): yup.SchemaDescription {
  let fixed = fixedDescriptions.get(schema);
  if (fixed === undefined) {
    fixed = dependsOnValue(schema) ? null : (schema.describe() as yup.SchemaDescription);
    fixedDescriptions.set(schema, fixed);
  }
  return fixed ?? (schema.describe({ value: input }) as yup.SchemaDescription);
}

/** Whether the schema, or one inside it, changes with the value (`when` conditions, `lazy`). */
function dependsOnValue(schema: unknown): boolean {
  const node = schema as { type?: string; conditions?: unknown[]; fields?: Record<string, unknown>; innerType?: unknown };
  if (node.type === 'lazy' || (node.conditions?.length ?? 0) > 0) return true;
  if (node.fields && Object.values(node.fields).some(dependsOnValue)) return true;
  return node.innerType !== undefined && dependsOnValue(node.innerType);
}

/** Validates input against a yup schema (unknown fields dropped); every problem is reported per field in one ValidationError (HTTP 400). */
export function validate<S extends yup.AnySchema>(schema: S, input: unknown): yup.InferType<S> {
  assertSafeInput(input);
  // Wrong types are reported first; the schema then judges what is left, so one answer names every bad field.
  const errors: Record<string, string> = {};
  const checked = checkTypes(input ?? {}, descriptionOf(schema, input), '', errors);
  let result: yup.InferType<S> | undefined;
  if (!errors._) {
    try {
      result = schema.validateSync(checked ?? {}, { abortEarly: false, stripUnknown: true }) as yup.InferType<S>;
    } catch (error) {
      if (!(error instanceof YupValidationError)) throw error;
      for (const inner of error.inner.length ? error.inner : [error]) errors[inner.path || '_'] ??= inner.message;
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError('Some fields are missing or invalid.', errors);
  return result as yup.InferType<S>;
}
