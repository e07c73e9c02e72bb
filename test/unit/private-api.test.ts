/**
 * Libraries through their documented API only (docs/data-access.md, architecture.md "Libraries
 * through their front doors"): no replaced method, no prototype set by hand, no private file, no
 * private table, no underscore-prefixed or private member of knex, pg or pg-boss. A plain search
 * of the sources of packages/, test/ and bench/, so a shortcut fails the build instead of a review.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCANNED = ['packages', 'test', 'bench'];
const THIS_FILE = path.relative(ROOT, import.meta.filename);

/**
 * Lines the rules must refuse and lines they must let pass. Kept as data beside this file, not as
 * code: the shortcuts are what no source may contain, this test's included.
 */
const EXAMPLES = JSON.parse(readFileSync(path.join(import.meta.dirname, 'private-api-examples.json'), 'utf8')) as { shortcuts: string[]; fine: string[] };

/**
 * What a shortcut around a library looks like in code, and why it is refused. `IN_TEXT` ones are
 * looked for in string literals too: a module path, a table named in SQL.
 */
const IN_TEXT: Array<[RegExp, string]> = [
  [/knex\/lib\//, "loads one of knex's private files"],
  [/\bpgboss\.\w+/, "reads pg-boss's own tables (use getJobById, findJobs, getQueueStats)"],
  // The same tables in a schema passed as an identifier binding (a test's own schema).
  [/\?\?\.(job|queue|schedule|archive)\b/, "reads pg-boss's own tables in another schema (use findJobs)"],
];
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\.handle\s*=[^=]/, "replaces Express's app.handle"],
  [/setPrototypeOf\(/, 'sets prototypes by hand'],
  [/\bacquireConnection\(|\breleaseConnection\(/, "drives knex's client pool by hand"],
  [/\bpendingAcquires\b/, "reaches into the pool's (tarn's) private queue"],
  [/\b_query\(/, "overrides a library's private method"],
  [/\bclient\??\.pool\b/, "reads knex's private pool (tarn)"],
  [/\bclient\??\.config\b/, "reads knex's private copy of its configuration"],
  [/\bconnection\??\.stream\b/, "reaches pg's socket (pg's end() closes it)"],
  [/\bconnectionParameters\b|\bactiveQuery\b|\bqueryQueue\b|\b_queryable\b/, "reads pg's private client state"],
  // `x._name` / `x.__name`: libraries mark their private members so; our own code has none but
  // the page globals a bench sets in the browser (`window.__inp`).
  [/[\w)\]](?<!\bwindow|\bglobalThis)\??\.__?[A-Za-z]\w*/, 'reads an underscore-prefixed (private) member'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry === 'node_modules' || entry === 'dist' || entry === 'dist-server' || entry.startsWith('.')) return [];
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry) ? [full] : [];
  });
}

/** A line without its comment and the insides of its string literals: code only (`'s1._domainkey.x'` is a DNS name). */
function codeOf(line: string): string {
  if (/^\s*(\*|\/\*|\/\/)/.test(line)) return '';
  return line
    .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''")
    .replace(/\s\/\/.*$/, '')
    .replace(/\/\*.*?\*\//g, '');
}

describe('libraries through their documented API only', () => {
  it('finds no private API use in packages/, test/ and bench/', () => {
    const files = SCANNED.flatMap((dir) => sources(path.join(ROOT, dir))).map((file) => path.relative(ROOT, file));
    expect(files.length).to.be.above(300);
    const found: string[] = [];
    for (const file of files) {
      if (file === THIS_FILE) continue;
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const code = codeOf(line);
          const rules = [
            ...FORBIDDEN.map(([pattern, why]) => ({ pattern, why, seen: code })),
            ...IN_TEXT.map(([pattern, why]) => ({ pattern, why, seen: line })),
          ];
          for (const { pattern, why, seen } of rules) {
            if (pattern.test(seen)) found.push(`${file}:${index + 1}: ${why}: ${line.trim()}`);
          }
        });
    }
    expect(found).to.deep.equal([]);
  });

  it('knows each shortcut when it sees one', () => {
    const { shortcuts, fine } = EXAMPLES;
    const refused = (line: string) => FORBIDDEN.some(([pattern]) => pattern.test(codeOf(line))) || IN_TEXT.some(([pattern]) => pattern.test(line));
    for (const shortcut of shortcuts) expect(refused(shortcut), shortcut).to.equal(true);
    for (const line of fine) expect(refused(line), line).to.equal(false);
  });
});
