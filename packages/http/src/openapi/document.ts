/**
 * The OpenAPI 3.1 document of `/api/openapi.json`, derived from the calls' declarations
 * (`@subshare/core/wire` calls/): operationId, tags, parameters and request bodies from the input
 * schemas (JSON Schema by json-schema.ts), 200 answers from the answer schemas, and every error
 * the call can answer, per status, with its `code` as an enum of that call's codes (the
 * declaration's own, plus those its access and input give every call). The provider
 * notifications describe their body and signature header. Pages are declarations too, but not
 * JSON calls: they are left out here (docs/api.md lists them).
 */
import { ERRORS, TAGS, isJsonAnswer, type Access, type Declaration, type HttpErrorCode, type Tag } from '@subshare/core/wire';
import { jsonSchemaConverter, type Converter, type JsonSchema } from './json-schema.js';
import { pagePath } from '@subshare/core/pages';

const ACCESS_NOTE: Record<Access, string> = {
  public: 'No token needed.',
  user: 'Needs a signed-in user (Bearer token).',
  verified: 'Needs a signed-in user whose e-mail is verified.',
  staff: 'Needs a moderator or an admin.',
  admin: 'Needs an admin.',
  provider: "Called by the payment provider; the body is the provider's own and its signature is checked.",
};

/** The codes any call with this access can answer, whatever it does. */
export function commonErrors(call: Pick<Declaration, 'access' | 'query' | 'body' | 'params' | 'rawBody' | 'method'>): HttpErrorCode[] {
  const codes: HttpErrorCode[] = ['database_unavailable'];
  const takesInput = Boolean(call.query || call.body || call.params || call.rawBody);
  if (takesInput) codes.push('validation', 'too_deep', 'forbidden_key');
  if (call.body) codes.push('malformed_json', 'payload_too_large');
  if (call.rawBody) codes.push('payload_too_large');
  if (call.access !== 'public' && call.access !== 'provider') codes.push('missing_token', 'invalid_token', 'token_expired', 'session_ended', 'user_gone');
  if (call.access === 'staff' || call.access === 'admin') codes.push('forbidden');
  if (call.access === 'verified') codes.push('email_not_verified');
  return codes;
}

/** Every code a call can answer, without repeats. */
export function errorCodesOf(call: Declaration): HttpErrorCode[] {
  return [...new Set([...call.errors, ...commonErrors(call)])];
}

const openPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const security = (access: Access) => (access === 'public' || access === 'provider' ? { security: [] } : {});

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

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

/** The error answers of a call: one per status, each naming the codes it can carry. */
function errorResponses(call: Declaration): Record<string, object> {
  const byStatus = new Map<number, HttpErrorCode[]>();
  for (const code of errorCodesOf(call)) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, object> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERRORS[code].message}`).join('\n\n'),
      ...(status === 429 || status === 503 ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }] },
        },
      },
    };
  }
  return responses;
}

/** A query that needs one of several parameters (JSON Schema says so on the object, which parameters cannot carry). */
const oneOfNote = (query: JsonSchema | undefined) => {
  const names = query?.['x-required-one-of'] as string[] | undefined;
  return names ? `One of ${names.map((name) => `\`${name}\``).join(' or ')} is required.` : '';
};

function operation(call: Declaration, convert: Converter): object {
  const pathParams = call.params
    ? parametersOf(convert.convert(call.params, 'input'), 'path')
    : [...call.path.matchAll(/:(\w+)/g)].map((match): Parameter => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
  const query = call.query ? convert.convert(call.query, 'input') : undefined;
  const body = call.body ? convert.convert(call.body, 'input') : undefined;
  const signature: Parameter[] = call.rawBody?.signatureHeader
    ? [{ name: call.rawBody.signatureHeader, in: 'header', required: true, description: call.rawBody.signature, schema: { type: 'string', minLength: 1 } }]
    : [];
  const answer = isJsonAnswer(call.answer)
    ? { '200': { description: call.summary, content: { 'application/json': { schema: convert.convert(call.answer, 'answer') } } } }
    : {
        [String(call.answer.status)]: {
          description: call.answer.description,
          ...(call.answer.contentType ? { content: { [call.answer.contentType]: { schema: { type: 'string' } } } } : {}),
        },
      };
  const rawSchema = call.rawBody?.schema ? convert.convert(call.rawBody.schema, 'input') : undefined;
  return {
    operationId: call.operationId,
    tags: [call.tag],
    summary: call.summary,
    description: [
      ACCESS_NOTE[call.access],
      call.description,
      oneOfNote(query),
      call.rawBody && !call.rawBody.signatureHeader && call.access === 'provider' ? call.rawBody.signature : '',
      call.extra ? 'Beyond the spec.' : '',
    ]
      .filter(Boolean)
      .join(' '),
    ...security(call.access),
    ...(pathParams.length + signature.length > 0 || query ? { parameters: [...pathParams, ...(query ? parametersOf(query, 'query') : []), ...signature] } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    // A body read as bytes: a provider's signed notification, or a file (the logo upload).
    ...(!body && call.rawBody
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              call.rawBody.types.map((type) => [
                type,
                { schema: rawSchema && !type.startsWith('image/') ? rawSchema : { type: 'string', contentMediaType: type } },
              ]),
            ),
          },
        }
      : {}),
    responses: { ...answer, ...errorResponses(call) },
    'x-access': call.access,
    'x-served-by': `packages/${call.servedBy}`,
  };
}

/** The JSON calls of the API (the declarations under /api/; pages are declarations but not calls). */
export function describedCalls<C extends Declaration>(table: readonly C[]): C[] {
  return table.filter((call) => call.path.startsWith('/api/'));
}

export function openApiDocument(publicUrl: string, table: readonly Declaration[]): object {
  const convert = jsonSchemaConverter();
  const paths: Record<string, Record<string, object>> = {};
  const described = describedCalls(table);
  for (const call of described) paths[openPath(call.path)] = { ...paths[openPath(call.path)], [call.method]: operation(call, convert) };
  const used = new Set<Tag>(described.map((call) => call.tag));
  return {
    openapi: '3.1.0',
    info: {
      title: 'subshare API',
      version: '1',
      description:
        "The shop's JSON API: every call of the storefront specification, with its spelling, plus the calls beyond it. Prices and totals are decimal numbers in major units; errors are `{ message, code, params?, errors? }`, each call listing its codes.",
      license: { name: 'UNLICENSED', identifier: 'LicenseRef-UNLICENSED' },
      contact: { name: 'subshare support', url: `${publicUrl.replace(/\/+$/, '')}${pagePath.support()}` },
    },
    servers: [{ url: publicUrl }],
    security: [{ bearer: [] }],
    tags: (Object.keys(TAGS) as Tag[]).filter((tag) => used.has(tag)).map((tag) => ({ name: tag, description: TAGS[tag] })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        ...convert.components(),
        Error: {
          type: 'object',
          description: 'An error. `message` is English; `params` are the values filled into it, for a translation keyed by `code`.',
          required: ['message', 'code'],
          properties: {
            message: { type: 'string' },
            code: { type: 'string' },
            params: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
            errors: { type: 'object', description: 'Per field, what is wrong with it (400 `validation`).', additionalProperties: { type: 'string' } },
          },
        },
      },
      headers: {
        RetryAfter: { description: 'Seconds to wait before asking again.', schema: { type: 'integer', minimum: 1 } },
      },
    },
  };
}
