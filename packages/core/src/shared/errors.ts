/**
 * The one error family of the core. Errors carry a `type` that says what went wrong
 * in the domain's terms; the HTTP layer maps each type to a status in one place and
 * never shows the message of an error that is not one of these.
 */
export type ErrorType =
  'validation' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'too_many_requests' | 'payload_too_large' | 'unavailable' | 'internal';

export interface DomainErrorOptions {
  /** A stable machine-readable code, e.g. `email_taken`. Defaults to the type. */
  code?: string;
  /** Per-field messages for validation errors. */
  errors?: Record<string, string>;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly type: ErrorType;
  readonly code: string;
  readonly errors?: Record<string, string>;

  constructor(type: ErrorType, message: string, options: DomainErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.type = type;
    this.code = options.code ?? type;
    this.errors = options.errors;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, errors?: Record<string, string>, code = 'validation') {
    super('validation', message, { errors, code });
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'You need to log in.', code = 'unauthenticated') {
    super('unauthenticated', message, { code });
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'You are not allowed to do this.', code = 'forbidden') {
    super('forbidden', message, { code });
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found.', code = 'not_found') {
    super('not_found', message, { code });
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code = 'conflict', cause?: unknown) {
    super('conflict', message, { code, cause });
  }
}

export class TooManyRequestsError extends DomainError {
  readonly retryAfterSeconds?: number;
  constructor(message = 'Too many attempts. Try again later.', retryAfterSeconds?: number) {
    super('too_many_requests', message, { code: 'too_many_requests' });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class UnavailableError extends DomainError {
  constructor(message: string, code = 'unavailable', cause?: unknown) {
    super('unavailable', message, { code, cause });
  }
}

/** Raised when the environment is unusable; the message is one line naming the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

const PG_UNIQUE_VIOLATION = '23505';
const PG_FOREIGN_KEY_VIOLATION = '23503';
const PG_CHECK_VIOLATION = '23514';
const PG_EXCLUSION_VIOLATION = '23P01';

/**
 * Turns a PostgreSQL error into a typed error at the repository boundary, so callers
 * never see driver codes. Anything unrecognised is rethrown untouched (it becomes a 500).
 */
export function translateDatabaseError(error: unknown, what = 'record'): never {
  const code = (error as { code?: string } | null)?.code;
  const constraint = (error as { constraint?: string } | null)?.constraint;
  switch (code) {
    case PG_UNIQUE_VIOLATION:
      throw new ConflictError(`This ${what} already exists.`, constraint ?? 'duplicate', error);
    case PG_EXCLUSION_VIOLATION:
      throw new ConflictError(`This ${what} overlaps an existing one.`, constraint ?? 'overlap', error);
    case PG_FOREIGN_KEY_VIOLATION:
      throw new ValidationError(`This ${what} refers to something that does not exist.`, undefined, 'reference');
    case PG_CHECK_VIOLATION:
      throw new ValidationError(`This ${what} breaks a rule: ${constraint ?? 'check'}.`, undefined, 'check');
    default:
      throw error;
  }
}
