import type { WireStatement } from './pg-wire-recorder.js';

/**
 * A statement's shape: its verb and the table it works on, e.g. `insert money_events`,
 * `select orders for update`, `update payments`, `select pg_advisory_xact_lock`, `begin`.
 * Two statements of one shape may differ in their columns, conditions, values and form (a CTE, a
 * literal for a parameter): bench/journey-order.sql's statements are compared with the shop's by
 * shape (test/e2e-api/journey-order-reference.test.ts, `bench:journey -- --capture`).
 */

/** The text without what parentheses enclose (subqueries, argument lists), repeatedly. */
function outerLevel(sql: string): string {
  let text = sql;
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(/\([^()]*\)/g, '');
  }
  return text;
}

const name = String.raw`([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)`;

export function statementShape(sql: string): string {
  const text = sql
    .toLowerCase()
    .replace(/--[^\n]*/g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''") // string literals (a JSON value may hold anything)
    .replace(/"/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/;$/, '');
  if (/^(begin|commit|rollback)\b/.test(text)) return text.split(' ')[0];
  // A data-modifying statement, or a WITH holding one: its first insert, update or delete.
  const change = new RegExp(String.raw`\b(?:insert into ${name}|update ${name} (?:as \w+ |\w+ )?set|delete from ${name})`).exec(text);
  if (change && (/^(insert|update|delete)\b/.test(text) || text.startsWith('with '))) {
    const [table, verb] = change[1] ? [change[1], 'insert'] : change[2] ? [change[2], 'update'] : [change[3], 'delete'];
    return `${verb} ${table}`;
  }
  // A read: the table its outer level reads from, or the function it calls.
  const outer = outerLevel(text);
  const locks = /\bfor update\b/.test(outer) ? ' for update' : '';
  const from = new RegExp(String.raw`\bfrom ${name}`).exec(outer);
  if (from) return `select ${from[1]}${locks}`;
  const call = new RegExp(String.raw`^select ${name} ?\(`).exec(text);
  return call ? `select ${call[1]}` : `other ${text.slice(0, 40)}`;
}

/**
 * The SQL statements of a pgbench script, in order: its meta-commands (`\set`) and comments left
 * out; a statement ends with a line that ends in `;` or in a `\gset`.
 */
export function pgbenchStatements(script: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  for (const line of script.split('\n')) {
    const trimmed = line.trim();
    if (!current.length && (trimmed === '' || trimmed.startsWith('--') || trimmed.startsWith('\\'))) continue;
    current.push(line);
    if (/;\s*$/.test(trimmed) || /\\gset(\s+\w+)?\s*$/.test(trimmed)) {
      statements.push(current.join('\n').replace(/\\gset(\s+\w+)?\s*$/, ''));
      current = [];
    }
  }
  if (current.length) throw new Error(`a pgbench statement without its end: ${current.join('\n').slice(0, 200)}`);
  return statements;
}

/**
 * Whether an order caused the statement, as journey-order.sql's header counts: not the worker's
 * heartbeat, nor pg-boss's work on other queues or its fetches that found nothing (its polls).
 */
export function causedByAnOrder(statement: WireStatement): boolean {
  if (statementShape(statement.sql).split(' ')[1] === 'worker_heartbeats') return false;
  if (/\bpgboss\./i.test(statement.sql)) {
    const onActivation = [statement.sql, ...statement.params].some((text) => text?.includes('order-activate'));
    return onActivation && statement.tag !== 'UPDATE 0';
  }
  return true;
}

/** pg-boss's completion of an activation job, answered: the last statement of an order. */
export const activationCompleted = (statement: WireStatement): boolean =>
  /state = 'completed'/.test(statement.sql) && statement.params.includes('order-activate') && statement.tag !== undefined;

/**
 * The two lists of shapes line by line, as a diff (a longest common subsequence): `  shape` in
 * both, `- shape` only in `ours`, `+ shape` only in `theirs`; empty when they are the same.
 */
export function shapeDiff(ours: string[], theirs: string[]): string[] {
  const common = Array.from({ length: ours.length + 1 }, () => new Array<number>(theirs.length + 1).fill(0));
  for (let i = ours.length - 1; i >= 0; i -= 1)
    for (let j = theirs.length - 1; j >= 0; j -= 1)
      common[i][j] = ours[i] === theirs[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
  const lines: string[] = [];
  let [i, j] = [0, 0];
  while (i < ours.length || j < theirs.length) {
    if (i < ours.length && j < theirs.length && ours[i] === theirs[j]) {
      lines.push(`  ${ours[i]}`);
      i += 1;
      j += 1;
    } else if (j >= theirs.length || (i < ours.length && common[i + 1][j] >= common[i][j + 1])) lines.push(`- ${ours[i++]}`);
    else lines.push(`+ ${theirs[j++]}`);
  }
  return lines.some((line) => !line.startsWith(' ')) ? lines : [];
}
