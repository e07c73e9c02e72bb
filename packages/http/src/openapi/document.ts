/**
 * The OpenAPI 3.1 document of `/api/openapi.json`, generated from the route table: parameters
 * and request bodies from the input schemas, 200 answers from the answer schemas (JSON Schema
 * by json-schema.ts), access from the guard each line names. Errors share one shape,
 * `{ message, code, errors? }`, described once as a component.
 */
import { isJsonAnswer, type Access, type Call } from '../routes/call.js';
import { jsonSchemaConverter, type Converter, type JsonSchema } from './json-schema.js';

const ACCESS_NOTE: Record<Access, string> = {
  public: 'No token needed.',
  user: 'Needs a signed-in user (Bearer token).',
  verified: 'Needs a signed-in user whose e-mail is verified.',
  staff: 'Needs a moderator or an admin.',
  admin: 'Needs an admin.',
  provider: "Called by the payment provider; the body is the provider's own and its signature is checked.",
};

const ERROR_REF = { $ref: '#/components/responses/Error' };

interface Parameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: JsonSchema;
}

function errorsOf(access: Access): Record<string, object> {
  const errors: Record<string, object> = { '400': ERROR_REF, '429': ERROR_REF };
  if (access !== 'public' && access !== 'provider') errors['401'] = ERROR_REF;
  if (access === 'verified' || access === 'staff' || access === 'admin') errors['403'] = ERROR_REF;
  return errors;
}

const openPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const security = (access: Access) => (access === 'public' || access === 'provider' ? { security: [] } : {});

/** An object schema's fields as parameters (`in` query or path). */
function parametersOf(schema: JsonSchema, location: 'query' | 'path'): Parameter[] {
  const required = (schema.required as string[] | undefined) ?? [];
  return Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}).map(([name, field]) => ({
    name,
    in: location,
    required: location === 'path' || required.includes(name),
    schema: field,
  }));
}

function tableOperation(line: Call, convert: Converter): object {
  const pathParams = line.params
    ? parametersOf(convert.convert(line.params, 'input'), 'path')
    : [...line.path.matchAll(/:(\w+)/g)].map((match): Parameter => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
  const body = line.body ? convert.convert(line.body, 'input') : undefined;
  const answer = isJsonAnswer(line.answer)
    ? { '200': { description: line.summary, content: { 'application/json': { schema: convert.convert(line.answer, 'answer') } } } }
    : {
        [String(line.answer.status)]: {
          description: line.answer.description,
          ...(line.answer.contentType ? { content: { [line.answer.contentType]: { schema: { type: 'string' } } } } : {}),
        },
      };
  return {
    tags: [line.tag],
    summary: line.summary,
    description: [ACCESS_NOTE[line.access], line.description, line.extra ? 'Beyond the spec.' : ''].filter(Boolean).join(' '),
    ...security(line.access),
    parameters: [...pathParams, ...(line.query ? parametersOf(convert.convert(line.query, 'input'), 'query') : [])],
    ...(body
      ? { requestBody: { required: ((body.required as string[] | undefined) ?? []).length > 0, content: { 'application/json': { schema: body } } } }
      : {}),
    // A file as the body (the logo upload): its bytes, in one of the listed types.
    ...(!body && line.rawBodyTypes
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(line.rawBodyTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
          },
        }
      : {}),
    responses: { ...answer, ...errorsOf(line.access) },
    'x-access': line.access,
  };
}

/** The calls of the API as the guards see them: the table's lines under /api/ (the demo checkout page is a line but not a call). */
export function describedCalls(table: Call[]): Array<{ method: 'get' | 'post'; path: string; access: Access }> {
  return table.filter((line) => line.path.startsWith('/api/'));
}

export function openApiDocument(publicUrl: string, table: Call[]): object {
  const convert = jsonSchemaConverter();
  const paths: Record<string, Record<string, object>> = {};
  // Only the API: the demo checkout page is a line of the table but not a call.
  for (const line of table.filter((candidate) => candidate.path.startsWith('/api/'))) {
    paths[openPath(line.path)] = { ...paths[openPath(line.path)], [line.method]: tableOperation(line, convert) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'subshare API',
      version: '1',
      description:
        "The shop's JSON API: every call of the storefront specification, with its spelling, plus the calls beyond it. Prices and totals are decimal numbers in major units; errors are `{ message, code, errors? }`.",
    },
    servers: [{ url: publicUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: convert.components(),
      responses: {
        Error: {
          description: 'An error: 400 bad input, 401 no or expired token, 403 not allowed, 404, 409 conflict, 429 too many attempts.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['message', 'code'],
                properties: { message: { type: 'string' }, code: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'string' } } },
              },
            },
          },
        },
      },
    },
  };
}
