/**
 * docs/api.md, docs/cli.md, docs/configuration.md and .env.example are derived, not copied: their
 * generated parts are what scripts/docs-render.ts renders from the declarations, the CLI's command
 * list and config-variables.ts now. `npm run docs` rewrites them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DECLARATIONS } from '@subshare/core/wire';
import { GENERATED, partOf, regenerated } from '../../scripts/docs-render.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(`${ROOT}docs/${file}`, 'utf8');

describe('generated docs (npm run docs)', function () {
  this.timeout(30_000);

  for (const file of new Set(GENERATED.map((part) => part.file))) {
    it(`docs/${file} holds what the declarations render now`, async () => {
      const text = read(file);
      expect(text, `docs/${file} is stale: run npm run docs`).to.equal(await regenerated(file, text));
    });
  }

  it('docs/api.md lists every declared call and page', () => {
    const text = `${partOf(read('api.md'), 'api')}\n${partOf(read('api.md'), 'pages')}`;
    for (const call of DECLARATIONS) expect(text, call.operationId).to.include(`${call.method.toUpperCase()} ${call.path}\``);
  });
});
