/**
 * The web's pages are declared once (packages/core/src/pages/index.ts, `@subshare/core/pages`):
 * the router takes its paths from there and everything else builds links with `pagePath`. This
 * test reads the sources' syntax (the TypeScript parser, so comments and prose are left alone) and
 * fails when
 * - code in packages/core/src, packages/http/src or packages/web/src writes a declared page's path
 *   in a string or template (`/user/${id}`, `${base}/platform/${id}`, '/jve/health', "/paymentresult/…");
 * - a route of the web app's router (app/routes.tsx, the admin area's and the catalog's routes)
 *   has a path that is not taken from a declaration, or a declared page has no route.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { PAGES, PAGE_LIST, pagePath, pagePattern, robotsDisallowPrefixes, routeWithin, type PageName } from '@subshare/core/pages';
import { POLICY_PAGES } from '../../packages/web/src/features/content/policies.js';
import { ROBOTS_DISALLOW } from '../../packages/http/src/seo/sitemap.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCANNED = ['packages/core/src', 'packages/http/src', 'packages/web/src'];

/** Where a page path may be written, and why. */
const ALLOWED: Readonly<Record<string, { literals?: readonly string[]; reason: string }>> = {
  'packages/core/src/pages/index.ts': { reason: 'the declarations themselves' },
  'packages/core/src/modules/payments/ledger.service.ts': { literals: ['/payment'], reason: 'a money event key (`<event>/payment`), not a link' },
  'packages/core/src/modules/payments/providers/payssion.ts': {
    literals: ['/payment/create', '/payment/details'],
    reason: "Payssion's own API paths, not our pages",
  },
};

/** The first segment of every declared page but home: '/user', '/jve', '/paymentresult', … */
const PAGE_SEGMENTS = [...new Set(PAGE_LIST.map((page) => page.path.split('/')[1]).filter((segment): segment is string => Boolean(segment)))];
const PAGE_PATH = new RegExp(`^/(?:${PAGE_SEGMENTS.join('|')})(?=[/?#]|$)`);

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => path.join(folder, file));
}

function parse(file: string): ts.SourceFile {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** Every string, template head and JSX attribute text of a file that starts with a declared page's path. */
function handWrittenPagePaths(source: ts.SourceFile): Array<{ line: number; text: string }> {
  const found: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    // A template's head and the text after each `${…}` (`${base}/user/${id}`: an origin, then a page).
    const texts =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? [node.text]
        : ts.isTemplateExpression(node)
          ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]
          : [];
    for (const text of texts.filter((candidate) => PAGE_PATH.test(candidate)))
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The `path` of every route object (`{ path: … }` in a routes array) and `<Route path=…>` of a file. */
function routePaths(source: ts.SourceFile): ts.Expression[] {
  const paths: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'path') paths.push(node.initializer);
    if (ts.isJsxAttribute(node) && node.name.getText(source) === 'path' && node.initializer) {
      paths.push(ts.isJsxExpression(node.initializer) ? node.initializer.expression! : (node.initializer as ts.StringLiteral));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return paths;
}

const ROUTER_FILES = [
  'packages/web/src/app/routes.tsx',
  'packages/web/src/features/admin/AdminArea.tsx',
  'packages/web/src/features/admin/catalog/CatalogRoutes.tsx',
];

describe('page paths (@subshare/core/pages)', () => {
  it('are written by hand nowhere in core, http or the web app', () => {
    const found = SCANNED.flatMap(sourceFiles).flatMap((file) => {
      const allowed = ALLOWED[file];
      if (allowed && !allowed.literals) return [];
      return handWrittenPagePaths(parse(file))
        .filter((hit) => !allowed?.literals?.includes(hit.text))
        .map((hit) => `${file}:${hit.line}: ${hit.text}`);
    });
    expect(found, 'build the link with pagePath from @subshare/core/pages').to.deep.equal([]);
  });

  it('flags a page path in a string or a template, and leaves the API and other paths alone', () => {
    const hits = (code: string) => handWrittenPagePaths(ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true)).map((hit) => hit.text);
    expect(hits('const a = `/user/${id}`;')).to.deep.equal(['/user/']);
    expect(hits('const a = `${base}/platform/${id}`;')).to.deep.equal(['/platform/']);
    expect(hits("res.redirect(303, '/paymentresult/' + id);")).to.deep.equal(['/paymentresult/']);
    expect(hits("url: '/jve/health?x=1'")).to.deep.equal(['/jve/health?x=1']);
    expect(hits("navigate('/login')")).to.deep.equal(['/login']);
    expect(hits("fetch('/api/user/getuser'); const b = '/users'; const c = '/platforms'; const d = '/media/x.svg';")).to.deep.equal([]);
    expect(hits('// a comment naming /user/{id}\n/** and `/jve/health` */ const e = 1;')).to.deep.equal([]);
  });

  it("every path of the web app's router comes from a declaration, and every declaration is routed", () => {
    const routed = new Set<string>();
    for (const file of ROUTER_FILES) {
      const source = parse(file);
      for (const expression of routePaths(source)) {
        const text = expression.getText(source);
        // '*' is the not-found route of each level: no page of its own.
        if (ts.isStringLiteral(expression) && expression.text === '*') continue;
        // The policy pages' one route: their declarations are checked through POLICY_PAGES below.
        if (text === 'route(policy.page)') continue;
        const names = [...text.matchAll(/\bPAGES\.(\w+)/g)].map((match) => match[1]!);
        expect(names.length, `${file}: route path ${text} is not taken from PAGES`).to.be.greaterThan(0);
        expect(ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression), `${file}: ${text}`).to.equal(false);
        for (const name of names) routed.add(name);
      }
    }
    // The policy pages are routed from POLICY_PAGES (one route each, `route(policy.page)`).
    for (const policy of POLICY_PAGES) {
      const name = (Object.keys(PAGES) as PageName[]).find((candidate) => PAGES[candidate] === policy.page);
      expect(name, policy.key).to.be.a('string');
      expect(policy.key, 'the texts are keyed by the route').to.equal(routeWithin(PAGES.home, policy.page));
      routed.add(name!);
    }
    routed.add('home'); // The layout's index route.
    expect([...routed].sort()).to.deep.equal(Object.keys(PAGES).sort());
  });

  it('builds the links the server sends and the patterns the docs show', () => {
    expect(pagePath.paymentResult(12, true)).to.equal('/paymentresult/12/1');
    expect(pagePath.paymentResult(12, false)).to.equal('/paymentresult/12/0');
    expect(pagePath.user(7, 3)).to.equal('/user/7?cardSaved=3&cardSession={CHECKOUT_SESSION_ID}');
    expect(pagePath.payment({ platformId: 1, typeId: 2, durationId: 3 })).to.equal('/payment?platform=1&type=2&duration=3');
    expect(pagePath.login('/payment?platform=1')).to.equal('/login?returnUrl=%2Fpayment%3Fplatform%3D1');
    expect(pagePath.login()).to.equal('/login');
    expect(pagePath.adminOrders(6, 41)).to.equal('/jve/orders/6?search=41');
    expect(pagePath.adminHealth()).to.equal('/jve/health');
    expect(pagePattern(PAGES.paymentResult)).to.equal('/paymentresult/{id}/{success}');
    // Each builder's link is matched by its own pattern.
    for (const page of PAGE_LIST) {
      const pattern = new RegExp(`^${page.path.replace(/:\w+/g, '[^/?]+')}(?:\\?|$)`);
      const args = page.path.includes(':') ? ['1', '1'] : [];
      expect((page.to as (...values: string[]) => string)(...args), page.path).to.match(pattern);
    }
  });

  it('robots.txt disallows the pages declared so, and nothing indexed', () => {
    expect(ROBOTS_DISALLOW).to.include.members(['/api/', '/jve', '/user/', '/payment', '/payssionpaymentresult', '/naver/callback']);
    for (const page of PAGE_LIST) {
      const blocked = robotsDisallowPrefixes().some((prefix) => page.to(...((page.path.includes(':') ? ['1', '1'] : []) as never[])).startsWith(prefix));
      expect(blocked, page.path).to.equal(page.robots === 'disallow');
    }
  });
});
