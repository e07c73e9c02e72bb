/**
 * A small typed builder for environment variables. One call per variable says its type, default,
 * range or allowed values, meaning and secret-ness; from that one description come its parser,
 * the error message that names its range, its TypeScript type (ConfigValues), and its lines in
 * `.env.example` and docs/configuration.md. The variables themselves are in config-variables.ts.
 *
 * Why not env-schema or yup: the loader must report every problem at once in the operator's
 * words ("PORT must be a port number from 1 to 65535 (got "eighty")"), never echo a secret,
 * keep reading past a bad value, and parse into Buffers and derived shapes; the docs need each
 * range in the same words. JSON Schema's messages ("must be <= 65535") and yup's `describe()`
 * would need as much code around them as this file.
 */

/** A value the parser refused: `why` follows "NAME must be"/"NAME"; `shown` replaces the raw value in the message. */
export class Rejected {
  constructor(
    readonly why: string,
    readonly shown?: string,
  ) {}
}

export interface ConfigVariable<T = unknown> {
  /** Heading in `.env.example`; set by `group()`. */
  readonly group: string;
  readonly description: string;
  /** The values it takes, in words (empty: any text): the docs' "accepts" column and the tail of its error message. */
  readonly accepts: string;
  /** The value when unset (or after a problem, so that reading goes on). */
  readonly fallback: T;
  /** The default in the docs: the literal default, or what unset means. */
  readonly defaultText: string;
  /** What `.env.example` shows after `NAME=` (commented out): the literal default, or an example. */
  readonly sample: string;
  /** Its value is never echoed in a problem. */
  readonly secret: boolean;
  /** Set both or neither: the name of the other one. */
  readonly together?: string;
  /** Production (DATABASE_URL set) refuses to start without it; demo mode generates it. */
  readonly requiredInProduction: boolean;
  /** The bounds of a number, the allowed values of a choice: also in `accepts`, kept apart for tests. */
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly string[];
  parse(raw: string): T | Rejected;
}

export type ValueOf<V> = V extends ConfigVariable<infer T> ? T : never;

interface Common {
  description: string;
  secret?: boolean;
  /** Shown in `.env.example` when the default is not a literal value worth uncommenting. */
  example?: string;
  together?: string;
  requiredInProduction?: boolean;
}
/** A variable without a literal default says what unset means. */
interface Unset {
  whenUnset: string;
}

function variable<T>(
  options: Common & Partial<Unset>,
  kind: { accepts: string; fallback: T; literal?: string; parse: (raw: string) => T | Rejected } & Pick<ConfigVariable, 'min' | 'max' | 'values'>,
): ConfigVariable<T> {
  return {
    group: '',
    description: options.description,
    accepts: kind.accepts,
    fallback: kind.fallback,
    defaultText: options.whenUnset ?? kind.literal ?? 'unset',
    sample: options.example ?? kind.literal ?? '',
    secret: options.secret ?? false,
    together: options.together,
    requiredInProduction: options.requiredInProduction ?? false,
    min: kind.min,
    max: kind.max,
    values: kind.values,
    parse: kind.parse,
  };
}

/** Sets the `.env.example` heading of each variable; the variables keep their types. */
export function group<V extends Record<string, ConfigVariable>>(heading: string, variables: V): V {
  return Object.fromEntries(Object.entries(variables).map(([name, spec]) => [name, { ...spec, group: heading }])) as V;
}

function lengthWords(min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return `${min} to ${max} characters long`;
  if (min !== undefined) return `at least ${min} characters long`;
  return max !== undefined ? `at most ${max} characters long` : '';
}

type TextOptions = Common & { minLength?: number; maxLength?: number };
/** Free text, optionally bounded in length. */
export function text(options: TextOptions & { default: string }): ConfigVariable<string>;
export function text(options: TextOptions & Unset): ConfigVariable<string | undefined>;
export function text(options: TextOptions & Partial<Unset> & { default?: string }): ConfigVariable<string | undefined> {
  const { minLength: min, maxLength: max } = options;
  const accepts = lengthWords(min, max);
  return variable(options, {
    accepts,
    fallback: options.default,
    literal: options.default,
    min,
    max,
    parse: (raw) => ((min !== undefined && raw.length < min) || (max !== undefined && raw.length > max) ? new Rejected(accepts) : raw),
  });
}

/**
 * A whole number from min to max. `noun` names what it counts ("a whole number of seconds");
 * the range is added to it in the docs and in the message.
 */
export function integer(options: Common & { default: number; min: number; max: number; noun?: string }): ConfigVariable<number> {
  return rangedNumber(options, `${options.noun ?? 'a whole number'} from ${options.min} to ${options.max}`, /^\d+$/);
}

/** A decimal number from min to max with at most `digits` decimals. */
export function decimal(options: Common & { default: number; min: number; max: number; digits: number; noun: string }): ConfigVariable<number> {
  const { min, max, digits } = options;
  return rangedNumber(options, `${options.noun} from ${min} to ${max} with at most ${digits} decimals`, new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`));
}

/** A number written in `shape` and from min to max; `accepts` says both, in the docs and in the message. */
function rangedNumber(options: Common & { default: number; min: number; max: number }, accepts: string, shape: RegExp): ConfigVariable<number> {
  const { min, max } = options;
  return variable(options, {
    accepts,
    fallback: options.default,
    literal: String(options.default),
    min,
    max,
    parse: (raw) => (shape.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : new Rejected(accepts)),
  });
}

/** true/false (also 1/0, yes/no). */
export function flag(options: Common & { default: boolean }): ConfigVariable<boolean> {
  return variable(options, {
    accepts: 'true or false',
    fallback: options.default,
    literal: String(options.default),
    parse: (raw) => {
      const value = raw.toLowerCase();
      if (['1', 'true', 'yes'].includes(value)) return true;
      if (['0', 'false', 'no'].includes(value)) return false;
      return new Rejected('true or false', value);
    },
  });
}

/** One of a few words. */
export function oneOf<const V extends string>(options: Common & { values: readonly V[]; default: V }): ConfigVariable<V> {
  const accepts = `one of ${options.values.join(', ')}`;
  return variable(options, {
    accepts,
    fallback: options.default,
    literal: options.default,
    values: options.values,
    parse: (raw) => ((options.values as readonly string[]).includes(raw) ? (raw as V) : new Rejected(accepts)),
  });
}

/**
 * A URL of one of `protocols`. `base`: an http(s) base URL, kept without its trailing slash.
 * `hostRequired`: it must name a host (`imaps:///` parses, but reaches nothing).
 */
export function url(options: Common & Unset & { protocols: readonly string[]; base?: boolean; hostRequired?: string }): ConfigVariable<string | undefined> {
  const { protocols } = options;
  return variable(options, {
    accepts: `a URL starting with ${protocols.join(' or ')}`,
    fallback: undefined,
    parse: (raw) => {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        return new Rejected(`must be a URL (${protocols.join(', ')})`, raw.replace(/\/\/[^@/]*@/, '//***@'));
      }
      if (!protocols.includes(parsed.protocol)) return new Rejected(`must start with ${protocols.join(' or ')}`, parsed.protocol);
      if (options.hostRequired && !parsed.hostname) return new Rejected(`must name a host, e.g. ${options.hostRequired}`);
      return options.base ? raw.replace(/\/+$/, '') : raw;
    },
  });
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/** An e-mail address, kept in lower case. */
export function email(options: Common & { default: string }): ConfigVariable<string>;
export function email(options: Common & Unset): ConfigVariable<string | undefined>;
export function email(options: Common & Partial<Unset> & { default?: string }): ConfigVariable<string | undefined> {
  return variable(options, {
    accepts: 'an e-mail address',
    fallback: options.default,
    literal: options.default,
    parse: (raw) => (EMAIL_SHAPE.test(raw) ? raw.toLowerCase() : new Rejected('an e-mail address')),
  });
}

/** Comma-separated e-mail addresses, lower case, each once; unset: none. */
export function emailList(options: Common & Unset): ConfigVariable<string[]> {
  const accepts = 'e-mail addresses separated by commas';
  return variable(options, {
    accepts,
    fallback: [],
    parse: (raw) => {
      const addresses = raw
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter((part) => part !== '');
      return addresses.every((address) => EMAIL_SHAPE.test(address)) ? [...new Set(addresses)] : new Rejected(accepts);
    },
  });
}

/** Any other shape: its own parser, its values in words. */
export function custom<T>(options: Common & Unset & { accepts: string; fallback: T; parse: (raw: string) => T | Rejected }): ConfigVariable<T> {
  return variable(options, { accepts: options.accepts, fallback: options.fallback, parse: options.parse });
}

export type Env = Record<string, string | undefined>;
export type ValuesOf<S extends Record<string, ConfigVariable>> = { -readonly [K in keyof S]: ValueOf<S[K]> };

/** A blank or whitespace-only variable counts as unset (`.env` files often hold `NAME=`). */
export function rawValue(env: Env, name: string): string | undefined {
  const trimmed = env[name]?.trim();
  return trimmed ? trimmed : undefined;
}

/** The one line of a problem; a secret's value is never echoed, only the shape that was expected. */
export function problemLine(name: string, spec: ConfigVariable | undefined, why: string, value?: string): string {
  const shown = value === undefined || spec?.secret ? '' : ` (got "${value}")`;
  return `Invalid configuration: ${name} ${why}${shown}`;
}

/**
 * Parses every variable of `schema` from `env`: each name is read once, a problem is recorded
 * (not thrown) and the variable takes its fallback so that reading goes on.
 */
export function readVariables<S extends Record<string, ConfigVariable>>(schema: S, env: Env): { values: ValuesOf<S>; problems: string[] } {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema)) {
    const raw = rawValue(env, name);
    const parsed = raw === undefined ? spec.fallback : spec.parse(raw);
    if (parsed instanceof Rejected) {
      const why = parsed.why.startsWith('must ') ? parsed.why : `must be ${parsed.why}`;
      problems.push(problemLine(name, spec, why, parsed.shown ?? raw));
      values[name] = spec.fallback;
    } else values[name] = parsed;
  }
  return { values: values as ValuesOf<S>, problems };
}
