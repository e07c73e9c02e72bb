/**
 * The backup file format, version 1: gzip'd NDJSON (one JSON object a line, `\n` after each).
 *
 *   {"format":"subshare-backup","version":1,"createdAt":"…","postgres":"18.4","credentialsKeyId":"1a2b3c4d",
 *    "migrations":["20261123000100_create-identity.ts",…],
 *    "tables":[{"name":"users","columns":[{"name":"id","type":"bigint"},…]},…],
 *    "sequences":[{"name":"users_id_seq","table":"users","column":"id","lastValue":"42"},…]}
 *   {"kind":"table","name":"users"}
 *   {"kind":"rows","rows":[["1","a@example.test",…,null],…]}          as many lines as needed
 *   {"kind":"table-end","name":"users","rows":1234,"digest":"…"}
 *   … every table of `tables` once, parents before children …
 *   {"kind":"end","tables":29,"rows":56789}
 *
 * A value is the column's PostgreSQL text form (`value::text` with DateStyle ISO, TimeZone UTC,
 * IntervalStyle postgres, bytea_output hex, extra_float_digits 3) or null; text input reads it
 * back exactly, so bigint ids, timestamps with time zone (microseconds), numeric, jsonb, bytea,
 * booleans and nulls survive without passing through JavaScript numbers or dates. A row lists
 * the table's columns in the header's order; generated columns are left out (PostgreSQL
 * computes them again). `digest` sums a hash of every row (see RowDigest), so a damaged file is
 * refused and a restore can prove that the database holds exactly what the file holds. The
 * `end` line shows that the file is complete.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

export const BACKUP_FORMAT = 'subshare-backup';
export const BACKUP_VERSION = 1;

export type Value = string | null;
export type Row = Value[];

export interface BackupColumn {
  name: string;
  /** `format_type()`, e.g. `timestamp with time zone`, `character(3)`. */
  type: string;
}

export interface BackupTable {
  name: string;
  columns: BackupColumn[];
}

export interface BackupSequence {
  name: string;
  /** The column that owns it (serial, bigserial, identity), if any. */
  table: string | null;
  column: string | null;
  /** null when the sequence was never used. */
  lastValue: string | null;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  postgres: string;
  /** Which CREDENTIALS_KEY the stored account and mailbox passwords were encrypted with. */
  credentialsKeyId: string;
  /** knex_migrations, in the order they were applied. */
  migrations: string[];
  tables: BackupTable[];
  sequences: BackupSequence[];
}

export type BodyLine =
  | { kind: 'table'; name: string }
  | { kind: 'rows'; rows: Row[] }
  | { kind: 'table-end'; name: string; rows: number; digest: string }
  | { kind: 'end'; tables: number; rows: number };

export type BackupEvent =
  | { kind: 'table'; table: BackupTable }
  | { kind: 'rows'; table: BackupTable; rows: Row[] }
  | { kind: 'table-end'; table: BackupTable; rows: number; digest: string }
  | { kind: 'end'; tables: number; rows: number };

/** A backup file that cannot be used: unreadable, not ours, another version, damaged or cut short. */
export class BackupFileError extends Error {}

const MASK = (1n << 128n) - 1n;

/**
 * The order-free checksum of a table's rows: the sum, modulo 2^128, of the first 16 bytes of
 * sha256(JSON of the row). Order-free so that a table without a primary key compares too.
 */
export class RowDigest {
  private sum = 0n;
  count = 0;

  add(row: Row): void {
    const hash = createHash('sha256').update(JSON.stringify(row)).digest();
    this.sum = (this.sum + (hash.readBigUInt64BE(0) << 64n) + hash.readBigUInt64BE(8)) & MASK;
    this.count += 1;
  }

  get value(): string {
    return this.sum.toString(16).padStart(32, '0');
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The file's lines, decompressed; gzip and file errors become one readable BackupFileError. */
async function* lines(file: string): AsyncGenerator<string> {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const decoder = new StringDecoder('utf8');
  let pieces: string[] = [];
  let seenData = false;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      seenData = true;
      const text = decoder.write(chunk);
      let start = 0;
      let newline = text.indexOf('\n');
      while (newline >= 0) {
        pieces.push(text.slice(start, newline));
        yield pieces.join('');
        pieces = [];
        start = newline + 1;
        newline = text.indexOf('\n', start);
      }
      if (start < text.length) pieces.push(text.slice(start));
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw new BackupFileError(`Cannot read ${file}: ${describe(error)}.`);
    if (!seenData) throw new BackupFileError(`${file} is not a subshare backup: not gzip data (${describe(error)}).`);
    throw new BackupFileError(`${file} is damaged or cut short: ${describe(error)}.`);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
  const rest = pieces.join('') + decoder.end();
  if (rest.length > 0) yield rest; // a last line without its newline: the `end` check decides
}

function parse(file: string, text: string, lineNumber: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (lineNumber === 1) throw new BackupFileError(`${file} is not a subshare backup: its first line is not JSON.`);
    throw new BackupFileError(`${file} is damaged: line ${lineNumber} is not valid JSON.`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function checkHeader(file: string, value: unknown): BackupHeader {
  if (!isObject(value) || value.format !== BACKUP_FORMAT) throw new BackupFileError(`${file} is not a subshare backup (no "${BACKUP_FORMAT}" header).`);
  if (value.version !== BACKUP_VERSION) {
    throw new BackupFileError(
      `${file} is a subshare backup of format version ${JSON.stringify(value.version)}; this subshare reads version ${BACKUP_VERSION}.`,
    );
  }
  const tableOk = (table: unknown) =>
    isObject(table) &&
    typeof table.name === 'string' &&
    Array.isArray(table.columns) &&
    table.columns.every((column) => isObject(column) && typeof column.name === 'string' && typeof column.type === 'string');
  const sequenceOk = (sequence: unknown) =>
    isObject(sequence) &&
    typeof sequence.name === 'string' &&
    (sequence.lastValue === null || (typeof sequence.lastValue === 'string' && /^-?\d+$/.test(sequence.lastValue)));
  const valid =
    typeof value.createdAt === 'string' &&
    typeof value.credentialsKeyId === 'string' &&
    isStringArray(value.migrations) &&
    Array.isArray(value.tables) &&
    value.tables.every(tableOk) &&
    Array.isArray(value.sequences) &&
    value.sequences.every(sequenceOk);
  if (!valid) throw new BackupFileError(`${file} is damaged: its header is incomplete.`);
  return value as unknown as BackupHeader;
}

/** Reads and checks the first line only. */
export async function readHeader(file: string): Promise<BackupHeader> {
  for await (const line of lines(file)) return checkHeader(file, parse(file, line, 1));
  throw new BackupFileError(`${file} is not a subshare backup: it is empty.`);
}

/**
 * The whole file as events, checked as it goes: every table of the header exactly once, rows
 * of the right width holding strings or nulls, counts and digests as announced, and the end
 * line last. Any fault throws BackupFileError, so a consumer inside a transaction rolls back.
 */
export async function* readBackup(file: string): AsyncGenerator<BackupEvent, void, undefined> {
  let header: BackupHeader | undefined;
  let tables = new Map<string, BackupTable>();
  const seen = new Set<string>();
  let current: { table: BackupTable; digest: RowDigest } | undefined;
  let total = 0;
  let ended = false;
  let lineNumber = 0;
  const damaged = (why: string) => new BackupFileError(`${file} is damaged: ${why} (line ${lineNumber}).`);

  for await (const text of lines(file)) {
    lineNumber += 1;
    const value = parse(file, text, lineNumber);
    if (!header) {
      header = checkHeader(file, value);
      tables = new Map(header.tables.map((table) => [table.name, table]));
      continue;
    }
    if (ended) throw damaged('there is more after the end line');
    if (!isObject(value)) throw damaged('a line is not an object');
    const line = value as BodyLine;
    switch (line.kind) {
      case 'table': {
        const table = tables.get(line.name);
        if (current || !table || seen.has(line.name)) throw damaged(`unexpected table ${JSON.stringify(line.name)}`);
        seen.add(line.name);
        current = { table, digest: new RowDigest() };
        yield { kind: 'table', table };
        break;
      }
      case 'rows': {
        if (!current || !Array.isArray(line.rows)) throw damaged('rows outside a table');
        const width = current.table.columns.length;
        for (const row of line.rows) {
          if (!Array.isArray(row) || row.length !== width || !row.every((item) => item === null || typeof item === 'string')) {
            throw damaged(`a row of ${current.table.name} does not fit its ${width} columns`);
          }
          current.digest.add(row);
        }
        total += line.rows.length;
        yield { kind: 'rows', table: current.table, rows: line.rows };
        break;
      }
      case 'table-end': {
        if (!current || line.name !== current.table.name) throw damaged('a table ends that did not start');
        if (line.rows !== current.digest.count || line.digest !== current.digest.value) {
          throw damaged(`the rows of ${current.table.name} do not match their count or checksum`);
        }
        yield { kind: 'table-end', table: current.table, rows: current.digest.count, digest: current.digest.value };
        current = undefined;
        break;
      }
      case 'end': {
        if (current) throw damaged(`it ends inside table ${current.table.name}`);
        const missing = [...tables.keys()].filter((name) => !seen.has(name));
        if (missing.length > 0) throw damaged(`tables missing: ${missing.join(', ')}`);
        if (line.tables !== seen.size || !isCount(line.rows) || line.rows !== total) throw damaged('the totals do not match');
        ended = true;
        yield { kind: 'end', tables: seen.size, rows: total };
        break;
      }
      default:
        throw damaged('unknown line');
    }
  }
  if (!header) throw new BackupFileError(`${file} is not a subshare backup: it is empty.`);
  if (!ended) throw new BackupFileError(`${file} is cut short: it stops before its end line (after line ${lineNumber}).`);
}
