/**
 * Libraries through their documented API only (docs/data-access.md, architecture.md "Libraries
 * through their front doors"): no replaced method, no prototype set by hand, no private file, no
 * private table. A plain search of the packages' sources, so a shortcut fails the build instead of
 * a review.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '../../packages');

/** What a shortcut around a library looks like, and why it is refused. */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\.handle\s*=[^=]/, "replaces Express's app.handle"],
  [/setPrototypeOf\(/, 'sets prototypes by hand'],
  [/knex\/lib\//, "loads one of knex's private files"],
  [/pgboss\.job\b/, "reads pg-boss's private job table"],
  [/\bacquireConnection\(|\breleaseConnection\(/, "drives knex's client pool by hand"],
  [/\bpendingAcquires\b/, "reaches into the pool's (tarn's) private queue"],
  [/\b_query\(/, "overrides a library's private method"],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry === 'node_modules' || entry === 'dist' || entry === 'dist-server') return [];
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx|js|mjs)$/.test(entry) ? [full] : [];
  });
}

describe('libraries through their documented API only', () => {
  it('finds no private API use in packages/', () => {
    const files = sources(ROOT);
    expect(files.length).to.be.above(100);
    const found: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const [pattern, why] of FORBIDDEN) {
            if (pattern.test(line)) found.push(`${path.relative(ROOT, file)}:${index + 1}: ${why}: ${line.trim()}`);
          }
        });
    }
    expect(found).to.deep.equal([]);
  });
});
