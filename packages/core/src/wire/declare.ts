/**
 * What a call is, declared once: method, path, who may call, the input and answer schemas, the
 * error codes it can answer, a summary, its tag and its operationId, and the file whose flow
 * serves it (`servedBy`, so the declaration is one hop from the story). The HTTP server binds a
 * handler to each declaration (packages/http `bind`), the OpenAPI document, the web's typed
 * client and docs/api.md are derived from the same objects.
 *
 * Pure types and data, like the rest of wire/: the web imports it too.
 */
import type * as yup from 'yup';
import type { HttpErrorCode } from './errors.js';

/** Who may call: nobody needs a token (`public`), any signed-in user, one with a verified e-mail, moderators and admins (`staff`), admins. `provider`: a payment provider's signed notification (no token; the handler checks the signature). */
export type Access = 'public' | 'user' | 'verified' | 'staff' | 'admin' | 'provider';

export type Tag = 'catalog' | 'catalog editor' | 'account' | 'orders' | 'payments' | 'webhooks' | 'panel' | 'staff' | 'e-mail' | 'operations' | 'pages';

export const TAGS: Record<Tag, string> = {
  catalog: "The storefront's catalog reads.",
  'catalog editor': 'Admins edit platforms, prices and logos.',
  account: 'Sign-up, log-in, e-mail codes, passwords.',
  orders: 'A buyer places and reads orders.',
  payments: 'Checkouts with the payment providers.',
  webhooks: "The payment providers' signed notifications.",
  panel: "The buyer's panel: subscriptions, credentials, verification mail.",
  staff: 'Moderators and admins: orders, users, subscriptions, refunds, audit.',
  'e-mail': 'Staff e-mails and the outbox.',
  operations: 'Health and this description.',
  pages: 'Server-rendered pages (not JSON).',
};

/**
 * An answer that is not a JSON body: 204 with nothing, a redirect, a CSV file, an HTML page, a
 * provider's acknowledgement.
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
 * A body read as bytes, not parsed as JSON by the server's JSON parser: a provider's signed
 * notification (the signature covers the exact bytes) or an uploaded file.
 */
export interface RawBody {
  /** The content types the body may have. */
  types: readonly string[];
  /** What the body holds, for the document (the handler reads it after checking the signature). */
  schema?: yup.Schema;
  /** The header carrying the signature, when the provider sends one (others sign inside the body). */
  signatureHeader?: string;
  /** How the signature is checked. */
  signature: string;
}

type ObjectSchema = yup.AnyObjectSchema;

export interface Declaration<
  A extends Access = Access,
  R extends AnswerSpec = AnswerSpec,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends ObjectSchema | undefined = ObjectSchema | undefined,
  P extends ObjectSchema | undefined = ObjectSchema | undefined,
> {
  /** Unique over the API: the generated clients' method name. */
  operationId: string;
  method: 'get' | 'post';
  /** Express style (`:id` for a path parameter). */
  path: string;
  access: A;
  tag: Tag;
  summary: string;
  /** More than the summary says (limits, audit, polling). */
  description?: string;
  /** Beyond the spec's section 7. */
  extra?: true;
  /** GET: the query string. */
  query?: Q;
  /** POST: the JSON body. */
  body?: B;
  /** Path parameters (`:id`). */
  params?: P;
  /** A body read as bytes (provider notifications, uploads). */
  rawBody?: RawBody;
  /** The largest body read, in bytes, when not the default (32 KiB JSON, 64 KiB raw). */
  bodyLimit?: number;
  answer: R;
  /** The codes this call answers beyond those its access and input give every call (400 `validation`, 401, 403, 429, 503 `database_unavailable`). */
  errors: readonly HttpErrorCode[];
  /** The file (under packages/) whose flow or service serves the call: the next hop. */
  servedBy: string;
}

/** One declaration; the types flow from the schemas to the bound handler and the web client. */
export function declare<
  A extends Access,
  R extends AnswerSpec,
  Q extends ObjectSchema | undefined = undefined,
  B extends ObjectSchema | undefined = undefined,
  P extends ObjectSchema | undefined = undefined,
>(declaration: Declaration<A, R, Q, B, P>): Declaration<A, R, Q, B, P> {
  return declaration;
}

/** A 204 answer without a body. */
export const noContent = (description = 'Nothing (204).'): OtherAnswer => ({ status: 204, description });

export const isJsonAnswer = (answer: AnswerSpec): answer is yup.Schema => typeof (answer as yup.Schema).describe === 'function';

type Infer<S> = S extends ObjectSchema ? yup.InferType<S> : Record<string, never>;
/** The validated input a declaration takes. */
export type QueryOf<D> = D extends Declaration<Access, AnswerSpec, infer Q> ? Infer<Q> : never;
export type BodyOf<D> = D extends Declaration<Access, AnswerSpec, ObjectSchema | undefined, infer B> ? Infer<B> : never;
export type ParamsOf<D> = D extends Declaration<Access, AnswerSpec, ObjectSchema | undefined, ObjectSchema | undefined, infer P> ? Infer<P> : never;
/** What a call answers: the JSON answer's type, or `void` for other answers. */
export type AnswerOf<D> = D extends Declaration<Access, infer R> ? (R extends yup.Schema ? yup.InferType<R> : void) : never;
