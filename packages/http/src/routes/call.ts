/**
 * A line of the route table binds a handler to a call's declaration (`@subshare/core/wire`
 * calls/<area>.ts): `bind(declaration, handler, options?)`. The declaration says what the call
 * is (method, path, access, schemas, errors); the line says only what serves it and where it is
 * mounted. The router (router.ts) validates with the declaration's schemas and guards by its
 * access; the OpenAPI document is generated from the declarations. `bind()` only checks the
 * types: the handler gets the inferred input and must return the inferred answer.
 */
import type { Request, Response } from 'express';
import type * as yup from 'yup';
import type { AuthenticatedUser, RequestContext } from '@subshare/core';
import type { Access, AnswerSpec, Declaration } from '@subshare/core/wire';

export { isJsonAnswer, noContent, type Access, type AnswerSpec, type OtherAnswer, type Tag } from '@subshare/core/wire';

/**
 * Where the line is mounted (app.ts): `api` after compression and the JSON parser (the default);
 * `precompressed` before compression, for handlers that send bytes compressed once
 * (serializers/cached-json.ts); `raw-body` before the JSON parser, for bodies read as bytes
 * (declarations with `rawBody`: signed provider notifications, uploads; `req.body` is a Buffer).
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

export type Handler<Q, B, P, R extends AnswerSpec, A extends Access> = (input: CallInput<Q, B, P, A>) => Promise<AnswerOf<R> | void> | AnswerOf<R> | void;

export interface BindOptions {
  /** Where the line is mounted; `raw-body` for declarations with `rawBody`, else `api`. */
  stage?: Stage;
}

/** A line of the table with its types erased, as the router and the document read it. */
export interface Call extends Declaration {
  stage: Stage;
  handler: (input: CallInput<unknown, unknown, unknown, Access>) => unknown;
}

/** One line of the route table: the declaration's types flow into the handler. */
export function bind<
  A extends Access,
  R extends AnswerSpec,
  Q extends ObjectSchema | undefined,
  B extends ObjectSchema | undefined,
  P extends ObjectSchema | undefined,
>(declaration: Declaration<A, R, Q, B, P>, handler: Handler<Q, B, P, R, A>, options: BindOptions = {}): Call {
  return {
    ...(declaration as unknown as Declaration),
    stage: options.stage ?? (declaration.rawBody ? 'raw-body' : 'api'),
    handler: handler as Call['handler'],
  };
}
