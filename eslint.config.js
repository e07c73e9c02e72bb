// ESLint: correctness and architecture rules. Formatting belongs to Prettier (`prettier --check`).
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const MODULES_DIR = path.resolve('packages/core/src/modules') + path.sep;
const FLOWS_DIR = path.resolve('packages/core/src/flows') + path.sep;
const PACKAGES_DIR = path.resolve('packages') + path.sep;

/**
 * Which core modules each module may import, and why. No other module: work that needs two
 * modules that are not listed here is a flow (`packages/core/src/flows/`), which may import any
 * module; a module never imports a flow. The money path is such work: payments and orders do
 * not know each other, flows/checkout.flow.ts and flows/payment-notification.flow.ts join them.
 */
const MODULE_IMPORTS = {
  accounts: ['audit', 'catalog'], // staff changes to accounts are audited; an account's platform must exist
  audit: [],
  catalog: [],
  identity: ['audit', 'notifications'], // role changes are audited; sign-up, login and reset codes are e-mails
  mailboxes: [],
  notifications: ['audit'], // staff e-mails are audited
  operations: [],
  orders: ['audit', 'catalog', 'identity'], // exports audited, prices from the catalog, the buyer
  payments: ['identity'], // the buyer and the request a checkout starts from
  referrals: [], // codes and who invited whom; flows/referral.flow.ts grants the credit
  promotions: ['audit', 'payments'], // staff changes to codes are audited; percentages with payments' percentOf (half up)
  renewals: [], // automatic renewal's own records; flows/renewal.flow.ts joins them with the rest
  subscriptions: ['accounts'], // a subscription holds a slot of an account
};

/**
 * Modules keep to themselves: a module imports only the modules MODULE_IMPORTS allows it, and
 * only through their index.ts (flows, http, worker and cli too); a package imports another
 * package only by its name (`@subshare/core`), never by a relative path into its sources.
 */
const moduleBoundaries = {
  meta: {
    type: 'problem',
    messages: {
      module: '{{target}} is internal to the {{module}} module: import it from its index.ts',
      crossing:
        'the {{from}} module may not import the {{module}} module: do the work that needs both in a flow (packages/core/src/flows/), or allow it in MODULE_IMPORTS (eslint.config.js) with the reason',
      flow: 'a module never imports a flow ({{target}}): the flow calls the module',
      package: 'import the {{pkg}} package by name (@subshare/{{pkg}}), not by a path into it',
      deep: 'import @subshare/{{pkg}} itself, not a file inside it',
    },
  },
  create(context) {
    const file = context.filename;
    const moduleOf = (p) => (p.startsWith(MODULES_DIR) ? p.slice(MODULES_DIR.length).split(path.sep)[0] : undefined);
    const packageOf = (p) => (p.startsWith(PACKAGES_DIR) ? p.slice(PACKAGES_DIR.length).split(path.sep)[0] : undefined);
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string') return;
      const deep = /^@subshare\/([\w-]+)\/(?!validation$|korean$|wire$|wire\/errors$|wire\/enums$|wire\/fill-in$|storefront$|promises$|pages$).+/.exec(spec); // validation, korean (its particles alone), promises (the numbers promised to buyers), pages (the web pages declared once), wire, wire/errors (the error dictionary, pure data for the web), wire/enums (payment methods, order states, platform categories), wire/fill-in and storefront are public subpaths
      if (deep) return context.report({ node, messageId: 'deep', data: { pkg: deep[1] } });
      if (!spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), spec);
      const [fromPkg, toPkg] = [packageOf(file), packageOf(target)];
      if (fromPkg && toPkg && fromPkg !== toPkg) return context.report({ node, messageId: 'package', data: { pkg: toPkg } });
      const [fromModule, toModule] = [moduleOf(file), moduleOf(target)];
      if (fromModule && target.startsWith(FLOWS_DIR)) return context.report({ node, messageId: 'flow', data: { target: spec } });
      if (fromModule && toModule && fromModule !== toModule && !(MODULE_IMPORTS[fromModule] ?? []).includes(toModule)) {
        return context.report({ node, messageId: 'crossing', data: { from: fromModule, module: toModule } });
      }
      if (toModule && fromModule !== toModule && !/[/\\]index\.(js|ts)$/.test(target)) {
        context.report({ node, messageId: 'module', data: { target: spec, module: toModule } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

/** Libraries' private files: never imported (they change without notice on an upgrade). */
const PRIVATE_LIBRARY_FILES = {
  group: ['knex/lib/*', 'knex/types/*', 'pg-boss/dist/*', 'express/lib/*', 'helmet/*', 'pino-http/*'],
  message: "a library's private file: use its documented API",
};

/**
 * Layers: http, worker and cli reach the database only through core (its services, flows and
 * repositories), never with a database library of their own.
 */
const DATABASE_LIBRARIES = ['knex', 'objection', 'pg'];
const EDGE_DATABASE_RULE = {
  paths: DATABASE_LIBRARIES.map((name) => ({ name, message: `http, worker and cli reach the database through @subshare/core, not ${name}` })),
  patterns: [
    { group: DATABASE_LIBRARIES.map((name) => `${name}/*`), message: 'http, worker and cli reach the database through @subshare/core' },
    PRIVATE_LIBRARY_FILES,
  ],
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/dist-server/**', '.data/**', '.tools/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { subshare: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: {
      'subshare/module-boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
      'no-restricted-imports': ['error', { patterns: [PRIVATE_LIBRARY_FILES] }],
    },
  },
  { files: ['packages/{http,worker,cli}/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', EDGE_DATABASE_RULE] } },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Unit and integration tests test parts, including a module's internals; chai assertions are expressions.
  { files: ['test/unit/**/*.ts', 'test/integration/**/*.ts'], rules: { 'subshare/module-boundaries': 'off' } },
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-unused-expressions': 'off' } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  prettier,
);
