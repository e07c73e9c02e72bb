/**
 * Writes the generated parts of docs/api.md, docs/cli.md and docs/configuration.md, and
 * .env.example and the web's route table (scripts/docs-render.ts): `npm run docs`. The prose around each part is kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderEnvExample } from '@subshare/core';
import { GENERATED, WEB_ROUTES_FILE, regenerated, renderWebRoutes } from './docs-render.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
for (const file of new Set(GENERATED.map((part) => part.file))) {
  const path = `${ROOT}docs/${file}`;
  writeFileSync(path, await regenerated(file, readFileSync(path, 'utf8')));
}
writeFileSync(`${ROOT}.env.example`, renderEnvExample());
writeFileSync(`${ROOT}${WEB_ROUTES_FILE}`, await renderWebRoutes());
