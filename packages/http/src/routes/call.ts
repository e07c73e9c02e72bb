/**
 * A line of the route table binds a handler to a call's declaration (`@subshare/core/wire`
 * calls/<area>.ts): `bind(declaration, handler, options?)`. The declaration says what the call
 * is (method, path, access, schemas, errors); the line says only what serves it and where it is
 * mounted. The router (router.ts) validates with the declaration's schemas and guards by its
 * access; the OpenAPI document is generated from the declarations. `bind()` only checks the
 * types: the handler gets the inferred input and must return the inferred answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type * as yup from 'yup';
import type { AuthenticatedUser, RequestContext } from '@subshare/core';
import type { Access, AnswerSpec, Declaration } from '@subshare/core/wire';

export { isJsonAnswer, noContent, type Access, type AnswerSpec, type OtherAnswer, type Tag } from '@subshare/core/wire';

/**
 * Where the line is mounted (app.ts): `api` after compression and the JSON parser (the default);
 * `precompressed` before compression, for handlers that send bytes compressed once
 * (serializers/cached-json.ts), among them the `plain` handlers the front door (front-door.ts)
 * answers on Node's own request and response, ahead of Express; `raw-body` before the JSON
 * parser, for bodies read as bytes (declarations with `rawBody`: signed provider notifications,
 * uploads; `req.body` is a Buffer).
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

export type Handler<Q, B, P, R extends AnswerSpec, A extends Access> = (input: CallInput<Q, B, P, A>) => Promise<AnswerOf<R> | void> | AnswerOf<R> | void;

export interface BindOptions<Q = unknown, R extends AnswerSpec = AnswerSpec, A extends Access = Access> {
  /** Where the line is mounted; `raw-body` for declarations with `rawBody`, else `api`. */
  stage?: Stage;
  /**
   * Instead of the handler (pass `undefined` for it), for GETs read often enough that Express's
   * own cost counts (the catalog reads, the buyer's panel): the same, on Node's own request and
   * response, so the front door (front-door.ts) can answer them ahead of Express; Express's
   * router runs it for what reaches it (HEAD… a trailing slash). Returns the JSON answer, or
   * nothing when it answered through `res`.
   */
  plain?: A extends 'provider' ? never : (input: PlainInput<Q, A>) => Promise<AnswerOf<R> | void>;
}

/** A line of the table with its types erased, as the router and the document read it. */
export interface Call extends Declaration {
  stage: Stage;
  handler?: (input: CallInput<unknown, unknown, unknown, Access>) => unknown;
  plain?: (input: PlainInput<unknown, Access>) => Promise<unknown>;
}

/** One line of the route table: the declaration's types flow into the handler. */
export function bind<
  A extends Access,
  R extends AnswerSpec,
  Q extends ObjectSchema | undefined,
  B extends ObjectSchema | undefined,
  P extends ObjectSchema | undefined,
>(declaration: Declaration<A, R, Q, B, P>, handler: Handler<Q, B, P, R, A> | undefined, options: BindOptions<Q, R, A> = {}): Call {
  return {
    ...(declaration as unknown as Declaration),
    stage: options.stage ?? (declaration.rawBody ? 'raw-body' : 'api'),
    ...(handler ? { handler: handler as Call['handler'] } : {}),
    ...(options.plain ? { plain: options.plain as Call['plain'] } : {}),
  };
}
