/**
 * The OpenAPI 3.1 document of `/api/openapi.json`, built once from the call list (calls.ts).
 * Errors share one shape, `{ message, code, errors? }`, described once as a component.
 */
import { API_CALLS, type Access, type ApiCall, type FieldType } from './calls.js';

const ACCESS_NOTE: Record<Access, string> = {
  public: 'No token needed.',
  user: 'Needs a signed-in user (Bearer token).',
  verified: 'Needs a signed-in user whose e-mail is verified.',
  staff: 'Needs a moderator or an admin.',
  admin: 'Needs an admin.',
  provider: "Called by the payment provider; the body is the provider's own and its signature is checked.",
};

const SCHEMA: Record<FieldType, object> = {
  integer: { type: 'integer' },
  number: { type: 'number' },
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  email: { type: 'string', format: 'email' },
};

const ERROR_REF = { $ref: '#/components/responses/Error' };

function fields(input: ApiCall['input'] = {}): Array<{ name: string; required: boolean; schema: object }> {
  return Object.entries(input).map(([key, type]) => ({ name: key.replace(/\?$/, ''), required: !key.endsWith('?'), schema: SCHEMA[type] }));
}

function operation(call: ApiCall): object {
  const params = fields(call.input);
  const pathParams = [...call.path.matchAll(/:(\w+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: SCHEMA.integer }));
  const errors: Record<string, object> = { '400': ERROR_REF, '429': ERROR_REF };
  if (call.access !== 'public' && call.access !== 'provider') errors['401'] = ERROR_REF;
  if (call.access === 'verified' || call.access === 'staff' || call.access === 'admin') errors['403'] = ERROR_REF;
  return {
    tags: [call.tag],
    summary: call.summary,
    description: `${ACCESS_NOTE[call.access]} Answers ${call.answers}.${call.extra ? ' Beyond the spec.' : ''}`,
    ...(call.access === 'public' || call.access === 'provider' ? { security: [] } : {}),
    parameters: [...pathParams, ...(call.method === 'get' ? params.map((param) => ({ ...param, in: 'query' })) : [])],
    ...(call.method === 'post' && params.length > 0
      ? {
          requestBody: {
            required: params.some((param) => param.required),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: Object.fromEntries(params.map((param) => [param.name, param.schema])),
                  required: params.filter((param) => param.required).map((param) => param.name),
                },
              },
            },
          },
        }
      : {}),
    responses: { '200': { description: call.answers }, ...errors },
    'x-access': call.access,
  };
}

export function openApiDocument(publicUrl: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const call of API_CALLS) {
    const path = call.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [call.method]: operation(call) };
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
