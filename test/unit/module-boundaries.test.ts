import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ESLint } from 'eslint';

const PACKAGES = path.resolve(import.meta.dirname, '../../packages');

/** The .ts files under a folder of packages/, recursively. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * The module-boundary rule (eslint.config.js) is what keeps the money path a flow: payments and
 * orders may not import each other, flows may import any module through its index.ts, and a
 * module never imports a flow. Linted as text under real file names, so no file is written.
 */
describe('module-boundary lint rule', function () {
  this.timeout(60_000);
  const eslint = new ESLint();

  async function problems(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((message) => message.ruleId === 'subshare/module-boundaries').map((message) => message.message);
  }

  it('refuses a payments → orders import and an orders → payments import, type-only too', async () => {
    expect(
      await problems('packages/core/src/modules/payments/probe.ts', "import { ORDERS } from '../orders/index.js';\nexport const probe = ORDERS;\n"),
    ).to.deep.equal([
      'the payments module may not import the orders module: do the work that needs both in a flow (packages/core/src/flows/), or allow it in MODULE_IMPORTS (eslint.config.js) with the reason',
    ]);
    expect(
      await problems(
        'packages/core/src/modules/orders/probe.ts',
        "import type { PaymentsService } from '../payments/index.js';\nexport type Probe = PaymentsService;\n",
      ),
    ).to.have.length(1);
  });

  it('refuses a module importing a flow', async () => {
    const found = await problems(
      'packages/core/src/modules/payments/probe.ts',
      "import type { CheckoutFlow } from '../../flows/index.js';\nexport type Probe = CheckoutFlow;\n",
    );
    expect(found).to.deep.equal(['a module never imports a flow (../../flows/index.js): the flow calls the module']);
  });

  it('lets a flow import both modules through their index.ts, but not their files', async () => {
    const code = [
      "import { ORDERS } from '../modules/orders/index.js';",
      "import { PAYMENTS } from '../modules/payments/index.js';",
      'export const probe = [ORDERS, PAYMENTS];',
      '',
    ].join('\n');
    expect(await problems('packages/core/src/flows/probe.flow.ts', code)).to.deep.equal([]);
    const internal = await problems(
      'packages/core/src/flows/probe.flow.ts',
      "import type { PaymentRow } from '../modules/payments/payment.repository.js';\nexport type Probe = PaymentRow;\n",
    );
    expect(internal).to.deep.equal(['../modules/payments/payment.repository.js is internal to the payments module: import it from its index.ts']);
  });

  it('lets a module import what MODULE_IMPORTS allows it', async () => {
    expect(
      await problems('packages/core/src/modules/orders/probe.ts', "import { CATALOG } from '../catalog/index.js';\nexport const probe = CATALOG;\n"),
    ).to.deep.equal([]);
    expect(
      await problems(
        'packages/core/src/modules/payments/probe.ts',
        "import type { AuthenticatedUser } from '../identity/index.js';\nexport type Probe = AuthenticatedUser;\n",
      ),
    ).to.deep.equal([]);
  });

  it('keeps knex, objection and pg out of http, worker and cli (the edges reach the database through core)', async () => {
    const restricted = async (filePath: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath });
      return result.messages.filter((message) => message.ruleId === 'no-restricted-imports').length;
    };
    for (const pkg of ['http', 'worker', 'cli']) {
      for (const library of ['knex', 'objection', 'pg', 'pg/lib/client.js']) {
        const found = await restricted(`packages/${pkg}/src/probe.ts`, `import * as probe from '${library}';\nexport const used = probe;\n`);
        expect(found, `${pkg} importing ${library}`).to.equal(1);
      }
      expect(await restricted(`packages/${pkg}/src/probe.ts`, "import type { Knex } from 'knex';\nexport type Probe = Knex;\n"), `${pkg}: a type too`).to.equal(
        1,
      );
    }
    expect(await restricted('packages/core/src/shared/probe.ts', "import pg from 'pg';\nexport const used = pg;\n"), 'core may').to.equal(0);
  });

  it('has no line that turns the module-boundary rule off', () => {
    const disabled = tsFiles(PACKAGES)
      .filter((file) => /eslint-disable[^\n]*subshare\/module-boundaries/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(PACKAGES, file));
    expect(disabled).to.deep.equal([]);
  });

  it("keeps the operations module to its own tables: identity's and the rate limiter's rows are theirs to delete", () => {
    const foreign = /\b(auth_sessions|verification_codes|rate_limits|users)\b/;
    const found = tsFiles(path.join(PACKAGES, 'core/src/modules/operations'))
      .filter((file) => foreign.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(PACKAGES, file));
    expect(found).to.deep.equal([]);
  });
});
