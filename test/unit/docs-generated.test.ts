/**
 * docs/api.md, docs/cli.md, docs/configuration.md and .env.example are derived, not copied: their
 * generated parts are what scripts/docs-render.ts renders from the declarations, the CLI's command
 * list and config-variables.ts now. `npm run docs` rewrites them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DECLARATIONS, calls } from '@subshare/core/wire';
import { GENERATED, WEB_ROUTES_FILE, partOf, regenerated, renderWebRoutes } from '../../scripts/docs-render.js';

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

  it("the web's route table is what the declarations render now", async () => {
    expect(readFileSync(`${ROOT}${WEB_ROUTES_FILE}`, 'utf8'), 'stale: run npm run docs').to.equal(await renderWebRoutes());
  });

  it('every declaration is exported under its operationId (the web client looks calls up by it)', () => {
    for (const [area, declarations] of Object.entries(calls).filter(([name]) => name !== 'DECLARATIONS')) {
      for (const [name, declaration] of Object.entries(declarations as Record<string, { operationId?: string }>)) {
        if (declaration.operationId !== undefined) expect(declaration.operationId, `${area}.${name}`).to.equal(name);
      }
    }
  });

  it('docs/api.md lists every declared call and page', () => {
    const text = `${partOf(read('api.md'), 'api')}\n${partOf(read('api.md'), 'pages')}`;
    for (const call of DECLARATIONS) expect(text, call.operationId).to.include(`${call.method.toUpperCase()} ${call.path}\``);
  });
});
