/**
 * The generated parts of docs/: the API's calls and pages and the error dictionary (from the
 * declarations, packages/core/src/wire), the jobs (JOB_DECLARATIONS), the web's pages (PAGES), the CLI's commands (packages/cli/src/commands.ts) and the
 * configuration (the schema in config-variables.ts). Each part sits in its file between
 * `<!-- generated:begin NAME -->` and `<!-- generated:end NAME -->`; the prose around it is written
 * by hand. scripts/docs.ts writes them; test/unit/docs-generated.test.ts fails while one is stale.
 */
import * as prettier from 'prettier';
import { CONFIG_VARIABLES, JOB_DECLARATIONS, meaningOf, type JobDeclaration } from '@subshare/core';
import { DECLARATIONS, ERRORS, HTTP_ERROR_CODES, isJsonAnswer, type Declaration } from '@subshare/core/wire';
import { PAGES, type PageDeclaration } from '@subshare/core/pages';
import { commonErrors } from '../packages/http/src/openapi/document.js';
import { COMMANDS } from '../packages/cli/src/commands.js';

/** A table cell: pipes escaped, one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
const table = (head: string[], rows: string[][]) => [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

function answerOf(call: Declaration): string {
  if (!isJsonAnswer(call.answer)) return `${call.answer.status}${call.answer.contentType ? ` ${call.answer.contentType}` : ''}`;
  return '200 JSON';
}

function inputOf(call: Declaration): string {
  const fields = (schema: Declaration['query']) => Object.keys((schema?.describe() as { fields?: object } | undefined)?.fields ?? {});
  const parts = [
    ...fields(call.params).map((name) => `:${name}`),
    ...fields(call.query).map((name) => `?${name}`),
    ...fields(call.body).map((name) => name),
    ...(call.rawBody ? [`raw ${call.rawBody.types.join(' / ')}${call.rawBody.signatureHeader ? ` + ${call.rawBody.signatureHeader}` : ''}`] : []),
  ];
  return parts.join(', ');
}

export function renderApi(): string {
  const calls = DECLARATIONS.filter((call) => call.path.startsWith('/api/'));
  return table(
    ['call', 'operationId', 'access', 'input', 'answer', 'errors (beyond the access\u2019s own)', 'summary', 'served by'],
    calls.map((call) => [
      `\`${call.method.toUpperCase()} ${call.path}\``,
      `\`${call.operationId}\``,
      call.access,
      inputOf(call),
      answerOf(call),
      call.errors.map((code) => `\`${code}\``).join(' '),
      call.summary + (call.extra ? ' (beyond the spec)' : ''),
      `\`${call.servedBy}\``,
    ]),
  );
}

export function renderPages(): string {
  const pages = DECLARATIONS.filter((call) => !call.path.startsWith('/api/'));
  return table(
    ['page', 'answer', 'summary', 'served by'],
    pages.map((page) => [`\`${page.method.toUpperCase()} ${page.path}\``, answerOf(page), page.summary, `\`${page.servedBy}\``]),
  );
}

export function renderErrors(): string {
  const common = new Set(DECLARATIONS.flatMap((call) => commonErrors(call)));
  return table(
    ['code', 'status', 'English message', 'answered by'],
    HTTP_ERROR_CODES.map((code) => {
      const by = DECLARATIONS.filter((call) => call.errors.includes(code)).map((call) => call.operationId);
      return [
        `\`${code}\``,
        String(ERRORS[code].status),
        ERRORS[code].message,
        by.length ? by.join(', ') : common.has(code) ? '(by access or input)' : '(any call)',
      ];
    }),
  );
}

export function renderCli(): string {
  return COMMANDS.map((make) => {
    const command = make();
    const args = command.registeredArguments.map((arg) => (arg.required ? `<${arg.name()}>` : `[${arg.name()}]`)).join(' ');
    const options = command.options
      .filter((option) => !option.hidden)
      .map((option) => [
        `\`${option.flags}\``,
        option.description + (option.defaultValue !== undefined && typeof option.defaultValue !== 'boolean' ? ` (default ${String(option.defaultValue)})` : ''),
      ]);
    return [
      `### \`subshare ${command.name()}${args ? ` ${args}` : ''}\``,
      '',
      command.description(),
      ...(options.length ? ['', table(['option', 'meaning'], options)] : []),
    ].join('\n');
  }).join('\n\n');
}

export function renderConfiguration(): string {
  return table(
    ['variable', 'meaning', 'accepts', 'default'],
    CONFIG_VARIABLES.map((variable) => [
      `\`${variable.name}\``,
      meaningOf(variable) + (variable.secret ? ' (secret)' : ''),
      variable.accepts,
      variable.defaultText,
    ]),
  );
}

/** A queue's policy in words: pg-boss's policy, retries, time limit, dead letter, slots. */
function policyOf(job: JobDeclaration): string {
  const { policy, retryLimit, retryDelay, retryBackoff, retryDelayMax, expireInSeconds, deadLetter } = job.options;
  const retries =
    retryLimit === undefined || retryLimit === 0
      ? 'no retry'
      : `${retryLimit} ${retryLimit === 1 ? 'retry' : 'retries'}${retryDelay ? `, ${retryDelay} s apart${retryBackoff ? ' and growing' : ''}${retryDelayMax ? ` up to ${retryDelayMax} s` : ''}` : ''}`;
  return [
    policy ?? 'standard',
    retries,
    ...(expireInSeconds ? [`${expireInSeconds} s a run`] : []),
    ...(deadLetter ? [`then \`${deadLetter}\``] : []),
    ...(job.concurrency ? [`${job.concurrency} at once per worker${job.batched ? ', fetched in batches' : ''}`] : []),
    ...(job.runAtStart ? ['also at worker start'] : []),
  ].join('; ');
}

export function renderJobs(): string {
  return table(
    ['queue', 'purpose', 'schedule (UTC)', 'policy', 'served by'],
    JOB_DECLARATIONS.map((job) => [
      `\`${job.name}\``,
      job.purpose,
      job.schedule ? `\`${job.schedule}\`` : 'sent by events',
      policyOf(job),
      `\`${job.servedBy}\``,
    ]),
  );
}

/** What robots, the server and sitemap.xml do with a page, in words. */
function handlingOf(page: PageDeclaration): string {
  const robots = { index: 'indexed', noindex: 'noindex', disallow: 'disallowed in robots.txt' }[page.robots];
  const sitemap = { none: '', page: '; in sitemap.xml', 'each platform': '; in sitemap.xml once per platform' }[page.sitemap];
  return `${robots}; rendered by the ${page.rendering}${sitemap}`;
}

/** The web app's pages (`@subshare/core/pages`): route, name of its builder, handling and purpose. */
export function renderWebPages(): string {
  return table(
    ['page', 'builder', 'robots, rendering, sitemap', 'purpose'],
    Object.entries(PAGES).map(([name, page]: [string, PageDeclaration]) => [`\`${page.path}\``, `\`pagePath.${name}\``, handlingOf(page), page.purpose]),
  );
}

/**
 * The web's route table (packages/web/src/services/api/routes.generated.ts): method, path and
 * whether the token goes along, per operationId. Generated so the browser's bundle gets the paths
 * without the declarations' yup schemas; the types come from the declarations themselves.
 */
export async function renderWebRoutes(): Promise<string> {
  const lines = DECLARATIONS.filter((call) => call.path.startsWith('/api/') && call.access !== 'provider').map(
    (call) => `  ${call.operationId}: { method: '${call.method.toUpperCase()}', path: '${call.path}', auth: ${call.access !== 'public'} },`,
  );
  const text = [
    '// Generated by `npm run docs` from the declarations (packages/core/src/wire/calls/): do not edit.',
    '// test/unit/docs-generated.test.ts fails while it is stale.',
    "import type { WebCalls } from './calls';",
    '',
    'export const ROUTES = {',
    ...lines,
    "} as const satisfies Record<keyof WebCalls, { method: 'GET' | 'POST'; path: string; auth: boolean }>;",
    '',
  ].join('\n');
  const options = (await prettier.resolveConfig(WEB_ROUTES_FILE)) ?? {};
  return prettier.format(text, { ...options, parser: 'typescript' });
}

export const WEB_ROUTES_FILE = 'packages/web/src/services/api/routes.generated.ts';

/** Every generated part: file (under docs/), part name, content. */
export const GENERATED: ReadonlyArray<{ file: string; name: string; render: () => string }> = [
  { file: 'api.md', name: 'api', render: renderApi },
  { file: 'api.md', name: 'pages', render: renderPages },
  { file: 'api.md', name: 'errors', render: renderErrors },
  { file: 'cli.md', name: 'cli', render: renderCli },
  { file: 'configuration.md', name: 'configuration', render: renderConfiguration },
  { file: 'jobs.md', name: 'jobs', render: renderJobs },
  { file: 'architecture.md', name: 'web-pages', render: renderWebPages },
];

const begin = (name: string) => `<!-- generated:begin ${name} -->`;
const end = (name: string) => `<!-- generated:end ${name} -->`;

/** The part `name` of `text` (between its markers), or undefined when the markers are missing. */
export function partOf(text: string, name: string): string | undefined {
  const from = text.indexOf(begin(name));
  const to = text.indexOf(end(name));
  return from === -1 || to === -1 ? undefined : text.slice(from + begin(name).length, to).trim();
}

/** What a docs file should hold: `text` with every generated part of `file` rendered, formatted as prettier formats it. */
export async function regenerated(file: string, text: string): Promise<string> {
  let next = text;
  for (const part of GENERATED.filter((candidate) => candidate.file === file)) next = withPart(next, part.name, part.render());
  const options = (await prettier.resolveConfig(`docs/${file}`)) ?? {};
  return prettier.format(next, { ...options, parser: 'markdown' });
}

/** `text` with the part `name` replaced by `content`. */
export function withPart(text: string, name: string, content: string): string {
  const from = text.indexOf(begin(name));
  const to = text.indexOf(end(name));
  if (from === -1 || to === -1) throw new Error(`No ${begin(name)} … ${end(name)} markers.`);
  return `${text.slice(0, from)}${begin(name)}\n\n${content}\n\n${text.slice(to)}`;
}
