/**
 * What one line of the route table says: method, path, who may call, the schemas of the input
 * and of the answer (from @subshare/core/wire), a summary, and the handler. The router
 * (router.ts) validates with the schemas and guards by the access; the OpenAPI document
 * (openapi/document.ts) is generated from the same lines. `call()` only checks the types: the
 * handler gets the inferred input and must return the inferred answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type * as yup from 'yup';
import type { AuthenticatedUser, RequestContext } from '@subshare/core';

/** Who may call: nobody needs a token (`public`), any signed-in user, one with a verified e-mail, moderators and admins (`staff`), admins. `provider`: a payment provider's signed notification (no token; the handler checks the signature). */
export type Access = 'public' | 'user' | 'verified' | 'staff' | 'admin' | 'provider';

export type Tag = 'catalog' | 'account' | 'orders' | 'payments' | 'panel' | 'staff' | 'e-mail' | 'operations';

/**
 * An answer that is not a JSON body: 204 with nothing, a redirect, a CSV file, an HTML page, a
 * provider's acknowledgement. The handler writes it through `res` and returns nothing.
 */
export interface OtherAnswer {
  status: number;
  /** The content type of the body, when there is one. */
  contentType?: string;
  description: string;
}

/** A JSON answer's schema, or a description of any other answer. */
export type AnswerSpec = yup.Schema | OtherAnswer;

/**
 * Where the line is mounted (app.ts): `api` after compression and the JSON parser (the default);
 * `precompressed` before compression, for public GETs whose `plain` handler sends bytes
 * compressed once (serializers/cached-json.ts): the front door (front-door.ts) answers them on
 * Node's own request and response, ahead of Express; `raw-body` before the JSON parser, for provider notifications
 * whose signature covers the exact bytes (`req.body` is a Buffer).
 */
export type Stage = 'api' | 'precompressed' | 'raw-body';

type ObjectSchema = yup.AnyObjectSchema;
type Infer<S> = S extends ObjectSchema ? yup.InferType<S> : Record<string, never>;
export type AnswerOf<R> = R extends yup.Schema ? yup.InferType<R> : void;

/** What a handler receives: the validated input, the caller, and the request for what is left (headers, the visitor's country). */
export interface CallInput<Q, B, P, A extends Access> {
  query: Infer<Q>;
  body: Infer<B>;
  /** Path parameters (`:id`). */
  params: Infer<P>;
  /** The signed-in caller; none on public and provider calls. */
  user: A extends 'public' | 'provider' ? undefined : AuthenticatedUser;
  /** Where the request came from (rate limits, the audit log). */
  context: RequestContext;
  req: Request;
  res: Response;
}

/** What a `plain` handler receives: the validated query and caller, as for `handler`, but Node's own request and response. */
export interface PlainInput<Q, A extends Access = 'public'> {
  query: Infer<Q>;
  user: CallInput<Q, undefined, undefined, A>['user'];
  context: RequestContext;
  req: IncomingMessage;
  res: ServerResponse;
}

export interface CallLine<Q, B, P, R extends AnswerSpec, A extends Access> {
  method: 'get' | 'post';
  /** Express style (`:id` for a path parameter). */
  path: string;
  access: A;
  tag: Tag;
  summary: string;
  /** More than the summary says (limits, audit, polling), for the document. */
  description?: string;
  /** Beyond the spec's section 7. */
  extra?: true;
  stage?: Stage;
  /** `raw-body` lines: the largest body read, in bytes (64 KiB when not given). */
  rawBodyLimit?: number;
  /** `raw-body` lines that take a file: the content types the document lists for the request body. */
  rawBodyTypes?: readonly string[];
  /** GET: the query string. */
  query?: Q;
  /** POST: the JSON body. */
  body?: B;
  params?: P;
  answer: R;
  /**
   * Returns the answer, which the router sends as JSON. Returning nothing means the handler
   * answered itself through `res` (redirects, files).
   */
  handler?: (input: CallInput<Q, B, P, A>) => Promise<AnswerOf<R> | void> | AnswerOf<R> | void;
  /**
   * Instead of `handler`, for GETs read often enough that Express's own cost counts (the catalog
   * reads, the buyer's panel): the same, on Node's own request and response, so the front door
   * (front-door.ts) can answer them ahead of Express; Express's router runs it for what reaches
   * it (HEAD… a trailing slash). Returns the JSON answer, or nothing when it answered through `res`.
   */
  plain?: A extends 'provider' ? never : (input: PlainInput<Q, A>) => Promise<AnswerOf<R> | void>;
}

/** A line of the table with its types erased, as the router and the document read it. */
export interface Call {
  method: 'get' | 'post';
  path: string;
  access: Access;
  tag: Tag;
  summary: string;
  description?: string;
  extra?: true;
  stage?: Stage;
  rawBodyLimit?: number;
  rawBodyTypes?: readonly string[];
  query?: ObjectSchema;
  body?: ObjectSchema;
  params?: ObjectSchema;
  answer: AnswerSpec;
  handler?: (input: CallInput<unknown, unknown, unknown, Access>) => unknown;
  plain?: (input: PlainInput<unknown, Access>) => Promise<unknown>;
}

/** One line of the route table: the types flow from the schemas into the handler. */
export function call<
  A extends Access,
  R extends AnswerSpec,
  Q extends ObjectSchema | undefined = undefined,
  B extends ObjectSchema | undefined = undefined,
  P extends ObjectSchema | undefined = undefined,
>(line: CallLine<Q, B, P, R, A>): Call {
  return line as unknown as Call;
}

/** A 204 answer without a body. */
export const noContent = (description = 'Nothing (204).'): OtherAnswer => ({ status: 204, description });

export const isJsonAnswer = (answer: AnswerSpec): answer is yup.Schema => typeof (answer as yup.Schema).describe === 'function';
