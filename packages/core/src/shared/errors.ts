import { ERRORS, errorMessage, type ErrorCode, type ErrorParams } from '../wire/errors.js';

/**
 * The one error family of the core. Errors carry a `type` that says what went wrong
 * in the domain's terms; the HTTP layer maps each type to a status in one place and
 * never shows the message of an error that is not one of these.
 */
export type ErrorType =
  'validation' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'too_many_requests' | 'payload_too_large' | 'unavailable' | 'internal';

export interface DomainErrorOptions {
  /** A code of the error dictionary (wire/errors.ts), e.g. `email_taken`. Defaults to the type. */
  code?: ErrorCode;
  /** Per-field messages for validation errors. */
  errors?: Record<string, string>;
  /** The values filled into the code's message, answered beside it for translations. */
  params?: ErrorParams;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly type: ErrorType;
  readonly code: ErrorCode;
  readonly errors?: Record<string, string>;
  readonly params?: ErrorParams;

  constructor(type: ErrorType, message: string, options: DomainErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.type = type;
    this.code = options.code ?? (type as ErrorCode);
    this.errors = options.errors;
    this.params = options.params;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, errors?: Record<string, string>, code: ErrorCode = 'validation', params?: ErrorParams) {
    super('validation', message, { errors, code, params });
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'You need to log in.', code: ErrorCode = 'unauthenticated', params?: ErrorParams) {
    super('unauthenticated', message, { code, params });
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'You are not allowed to do this.', code: ErrorCode = 'forbidden', params?: ErrorParams) {
    super('forbidden', message, { code, params });
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found.', code: ErrorCode = 'not_found', params?: ErrorParams) {
    super('not_found', message, { code, params });
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code: ErrorCode = 'conflict' as ErrorCode, cause?: unknown, params?: ErrorParams) {
    super('conflict', message, { code, cause, params });
  }
}

export class TooManyRequestsError extends DomainError {
  readonly retryAfterSeconds?: number;
  /** One code per limit (wire/errors.ts), so the visitor is told which wait applies. */
  constructor(code: ErrorCode = 'too_many_requests', retryAfterSeconds?: number) {
    super('too_many_requests', errorMessage(code), { code });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class UnavailableError extends DomainError {
  /** Sent as Retry-After: when it is worth asking again. */
  readonly retryAfterSeconds?: number;
  constructor(message: string, code: ErrorCode = 'unavailable', cause?: unknown, retryAfterSeconds?: number, params?: ErrorParams) {
    super('unavailable', message, { code, cause, params });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const TYPE_OF_STATUS: Record<number, ErrorType> = {
  400: 'validation',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'too_many_requests',
  503: 'unavailable',
  500: 'internal',
};

/**
 * The error of `code`, with the dictionary's message (wire/errors.ts) filled with `params`: how
 * core throws (`throw fail('order_not_found')`). The class follows the code's status, so
 * `instanceof NotFoundError` and friends still tell kinds apart.
 */
export function fail(
  code: ErrorCode,
  params?: ErrorParams,
  details: { errors?: Record<string, string>; cause?: unknown; retryAfterSeconds?: number } = {},
): DomainError {
  const message = errorMessage(code, params);
  switch (TYPE_OF_STATUS[ERRORS[code].status]) {
    case 'validation':
      return new ValidationError(message, details.errors, code, params);
    case 'unauthenticated':
      return new UnauthenticatedError(message, code, params);
    case 'forbidden':
      return new ForbiddenError(message, code, params);
    case 'not_found':
      return new NotFoundError(message, code, params);
    case 'conflict':
      return new ConflictError(message, code, details.cause, params);
    case 'too_many_requests':
      return new TooManyRequestsError(code, details.retryAfterSeconds);
    case 'unavailable':
      return new UnavailableError(message, code, details.cause, details.retryAfterSeconds, params);
    default:
      return new DomainError(TYPE_OF_STATUS[ERRORS[code].status], message, { code, params, cause: details.cause, errors: details.errors });
  }
}

/** Raised when the environment is unusable: one line per problem, each naming its variable. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const lines = typeof problems === 'string' ? [problems] : problems;
    super(lines.join('\n'));
    this.name = 'ConfigError';
    this.problems = lines;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

const PG_UNIQUE_VIOLATION = '23505';
const PG_FOREIGN_KEY_VIOLATION = '23503';
const PG_CHECK_VIOLATION = '23514';
const PG_EXCLUSION_VIOLATION = '23P01';

/** The driver's error behind `error`: Objection wraps it (UniqueViolationError…) and keeps pg's code on `nativeError`. */
function driverError(error: unknown): { code?: string; constraint?: string } | null {
  const native = (error as { nativeError?: unknown } | null)?.nativeError;
  return ((native && typeof native === 'object' ? native : error) ?? null) as { code?: string; constraint?: string } | null;
}

/** Whether `error` (pg's or Objection's wrapper of it) is a unique violation, of `constraint` when given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driver = driverError(error);
  return driver?.code === PG_UNIQUE_VIOLATION && (constraint === undefined || driver.constraint === constraint);
}

/** Why the database could not answer, in words safe to show (no host, no statement). */
export type DatabaseFailure =
  | 'connection_refused'
  | 'connection_lost'
  | 'timeout'
  | 'shutting_down'
  | 'unreachable'
  /** 53100: PostgreSQL could not extend a file (its disk, or a tablespace's, is full). */
  | 'disk_full'
  /** The rest of class 53 (insufficient resources): out of memory, a configuration limit. */
  | 'insufficient_resources';

const NETWORK_FAILURES: Record<string, DatabaseFailure> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_lost',
  EPIPE: 'connection_lost',
  ETIMEDOUT: 'timeout',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
};

/**
 * SQLSTATEs that mean "not now" rather than "wrong": class 08 (connection), 57 (operator
 * intervention) and 53 (insufficient resources: a full disk, no memory), which the request did
 * not cause and which pass once an operator or the server frees them.
 */
function sqlStateFailure(code: string): DatabaseFailure | undefined {
  if (code === '57014') return 'timeout'; // query_canceled: statement_timeout
  if (code === '57P01' || code === '57P02' || code === '57P03') return 'shutting_down'; // admin/crash shutdown, cannot connect now
  if (code === '53300') return 'unreachable'; // too_many_connections
  if (code === '53100') return 'disk_full';
  if (code.startsWith('53')) return 'insufficient_resources';
  if (code.startsWith('08')) return 'connection_lost';
  return undefined;
}

/** The pg and knex errors that have no code, by message (knex puts the statement in front: `<sql> - <message>`). */
const MESSAGE_FAILURES: Array<[RegExp, DatabaseFailure]> = [
  [/(^| - )Query read timeout$/, 'timeout'],
  [/(^| - )(timeout expired|timeout exceeded when trying to connect|Connection terminated due to connection timeout)$/, 'timeout'],
  [
    /(^| - )(Connection terminated|Connection ended unexpectedly|Client was closed and is not queryable|Client has encountered a connection error)/,
    'connection_lost',
  ],
];

/**
 * Whether `error` says the database could not be reached or did not answer in time (and how),
 * rather than that a statement was wrong. Looks through the wrappers that knex, Objection and
 * Node put around the driver's error (`nativeError`, `cause`, AggregateError's `errors`).
 */
export function databaseFailure(error: unknown): DatabaseFailure | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 10) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, name, message, nativeError, cause, errors } = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      nativeError?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string') {
      const failure = NETWORK_FAILURES[code] ?? (/^[0-9A-Z]{5}$/.test(code) ? sqlStateFailure(code) : undefined);
      if (failure) return failure;
    }
    // knex gave up waiting for a connection of its pool (the pool's acquire timeout).
    if (name === 'KnexTimeoutError') return 'timeout';
    if (typeof message === 'string') {
      const match = MESSAGE_FAILURES.find(([pattern]) => pattern.test(message));
      if (match) return match[1];
    }
    queue.push(nativeError, cause, ...(Array.isArray(errors) ? errors : []));
  }
  return undefined;
}

/** Seconds a client is told to wait (Retry-After) when the database is down: about one pool bound. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The one mapping of a lost, unreachable, unanswering or full database to a typed error: the HTTP
 * layer answers it with 503 and Retry-After instead of a 500.
 */
export function databaseUnavailable(error: unknown): UnavailableError | undefined {
  if (error instanceof DomainError) return undefined;
  const failure = databaseFailure(error);
  if (!failure) return undefined;
  return new UnavailableError(
    'The shop cannot reach its database right now. Please try again in a moment.',
    'database_unavailable',
    error,
    DATABASE_RETRY_AFTER_SECONDS,
  );
}

/**
 * Turns a PostgreSQL error into a typed error at the repository boundary, so callers
 * never see driver codes. Anything unrecognised is rethrown untouched (it becomes a 500).
 */
export function translateDatabaseError(error: unknown, what = 'record'): never {
  const code = driverError(error)?.code;
  const constraint = driverError(error)?.constraint;
  switch (code) {
    // The constraint's name is a detail of the schema, not a code: it goes to `params`, not to `code`.
    case PG_UNIQUE_VIOLATION:
      throw fail('duplicate', { what, ...(constraint ? { constraint } : {}) }, { cause: error });
    case PG_EXCLUSION_VIOLATION:
      throw fail('overlap', { what, ...(constraint ? { constraint } : {}) }, { cause: error });
    case PG_FOREIGN_KEY_VIOLATION:
      throw fail('reference', { what });
    case PG_CHECK_VIOLATION:
      throw fail('check', { what, ...(constraint ? { constraint } : {}) });
    default:
      throw databaseUnavailable(error) ?? error;
  }
}
