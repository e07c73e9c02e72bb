/**
 * yup → JSON Schema (2020-12, as OpenAPI 3.1 uses it), read from a schema's `describe()`.
 * It knows what the wire schemas use: types, required (`optional: false`), nullable, `oneOf`
 * (as `enum`), min/max/length, e-mail and `meta({ format })`, arrays and nested objects.
 * A schema with `meta({ name })` becomes a named component, referenced by `$ref`.
 *
 * Answers are described closed (`additionalProperties: false`), so the answer test catches
 * a field sent but not declared; inputs stay open, because unknown fields are dropped, not refused.
 */
import type * as yup from 'yup';

export type JsonSchema = Record<string, unknown>;

type Description = yup.SchemaDescription & {
  meta?: { name?: string; format?: string; description?: string; requiredOneOf?: string[]; schema?: JsonSchema };
  fields?: Record<string, Description>;
  innerType?: Description;
  default?: unknown;
};

export interface Converter {
  /** The JSON Schema of `schema`; `answer` describes objects closed. */
  convert(schema: yup.Schema, mode: 'input' | 'answer'): JsonSchema;
  /** The named schemas met so far, for `components.schemas`. */
  components(): Record<string, JsonSchema>;
}

/**
 * What the server refuses in every input string before the schema's own rules (core's
 * validate.ts): control characters other than tab, line feed and carriage return. As a pattern,
 * so a client generated from the document refuses them too.
 */
const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';
/** Whole numbers go to PostgreSQL `integer` columns: the server refuses larger ones (validate.ts). */
const INTEGER_MAX = 2_147_483_647;

const TYPES: Record<string, string> = { string: 'string', number: 'number', boolean: 'boolean', object: 'object', array: 'array' };

export function jsonSchemaConverter(): Converter {
  const named: Record<string, JsonSchema> = {};
  const namedFrom = new Map<string, string>();

  function withNull(schema: JsonSchema, nullable: boolean): JsonSchema {
    if (!nullable) return schema;
    if (schema.$ref) return { anyOf: [schema, { type: 'null' }] };
    const enumValues = schema.enum as unknown[] | undefined;
    return {
      ...schema,
      ...(schema.type ? { type: [schema.type, 'null'] } : {}),
      ...(enumValues && !enumValues.includes(null) ? { enum: [...enumValues, null] } : {}),
    };
  }

  function bounds(description: Description, kind: 'string' | 'number' | 'array'): JsonSchema {
    const out: JsonSchema = {};
    const names = { string: ['minLength', 'maxLength'], number: ['minimum', 'maximum'], array: ['minItems', 'maxItems'] }[kind];
    for (const test of description.tests) {
      const params = (test.params ?? {}) as Record<string, unknown>;
      if (test.name === 'min' && typeof params.min === 'number') out[names[0]] = params.min;
      if (test.name === 'max' && typeof params.max === 'number') out[names[1]] = params.max;
      if (test.name === 'length' && typeof params.length === 'number') out[names[0]] = out[names[1]] = params.length;
    }
    return out;
  }

  function body(description: Description, mode: 'input' | 'answer'): JsonSchema {
    // A schema yup cannot describe (a value of two types) says its JSON Schema itself.
    if (description.meta?.schema) return { ...description.meta.schema, ...(description.meta.description ? { description: description.meta.description } : {}) };
    const has = (name: string) => description.tests.some((test) => test.name === name);
    const out: JsonSchema = {};
    switch (description.type) {
      case 'string': {
        Object.assign(out, { type: 'string' }, bounds(description, 'string'), has('email') ? { format: 'email' } : {});
        const matches = description.tests.find((test) => test.name === 'matches')?.params as { regex?: RegExp } | undefined;
        if (matches?.regex) out.pattern = matches.regex.source;
        else if (mode === 'input' && !out.format && !(description.oneOf.length > 0)) out.pattern = NO_CONTROL_CHARACTERS;
        // A required text must hold something: yup's `required` refuses "".
        if (mode === 'input' && has('required') && out.minLength === undefined) out.minLength = 1;
        break;
      }
      case 'number': {
        const integer = has('integer');
        Object.assign(out, { type: integer ? 'integer' : 'number' }, bounds(description, 'number'));
        if (mode === 'input' && integer) {
          if (out.maximum === undefined || (out.maximum as number) > INTEGER_MAX) out.maximum = INTEGER_MAX;
          if (out.minimum === undefined) out.minimum = -INTEGER_MAX;
        }
        break;
      }
      case 'boolean':
        out.type = 'boolean';
        break;
      case 'array':
        Object.assign(
          out,
          { type: 'array' },
          description.innerType ? { items: convertDescription(description.innerType, mode) } : {},
          bounds(description, 'array'),
        );
        break;
      case 'object': {
        const fields = Object.entries(description.fields ?? {});
        out.type = 'object';
        // An object without declared fields stands for any object.
        if (fields.length > 0) {
          out.properties = Object.fromEntries(fields.map(([name, field]) => [name, convertDescription(field, mode)]));
          const required = fields.filter(([, field]) => !field.optional).map(([name]) => name);
          if (required.length > 0) out.required = required;
          if (mode === 'answer') out.additionalProperties = false;
        }
        if (description.meta?.requiredOneOf) out['x-required-one-of'] = description.meta.requiredOneOf;
        break;
      }
      default:
        // mixed: any JSON value.
        break;
    }
    if (description.oneOf.length > 0) out.enum = description.oneOf.filter((value) => value !== undefined);
    if (description.meta?.format) out.format = description.meta.format;
    if (description.meta?.description) out.description = description.meta.description;
    if (description.default !== undefined && typeof description.default !== 'object') out.default = description.default;
    if (description.type !== 'mixed' && !TYPES[description.type]) throw new Error(`No JSON Schema for a yup ${description.type}.`);
    return out;
  }

  function convertDescription(description: Description, mode: 'input' | 'answer'): JsonSchema {
    const name = description.meta?.name;
    if (!name) return withNull(body(description, mode), description.nullable);
    // A name stands for one shape: the same name for two shapes would make the document lie.
    const key = `${mode === 'answer' ? name : `${name}Input`}`;
    const converted = body(description, mode);
    const text = JSON.stringify(converted);
    if (namedFrom.has(key) && namedFrom.get(key) !== text) throw new Error(`Two different schemas are named ${name}.`);
    namedFrom.set(key, text);
    named[key] = converted;
    return withNull({ $ref: `#/components/schemas/${key}` }, description.nullable);
  }

  return {
    convert: (schema, mode) => convertDescription(schema.describe() as Description, mode),
    components: () => ({ ...named }),
  };
}
