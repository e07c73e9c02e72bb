/**
 * The storefront's first screen is drawn with plain CSS (components/plain/base.css) whose custom
 * properties copy Chakra's tokens, so the shell does not shift when Chakra arrives with a later
 * page. This keeps the copy in step: each `--ss-*` value must be the Chakra token it names (the
 * light scheme, as components/ui/system.ts keeps it), read from `@chakra-ui/react/theme`, which
 * is what the system is built from. An upgrade of Chakra that changes a token fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { semanticTokens, tokens } from '@chakra-ui/react/theme';

const BASE_CSS = path.resolve(import.meta.dirname, '../../packages/web/src/components/plain/base.css');

/** Each plain-CSS variable and the Chakra token it copies (a semantic token by its light value). */
const COPIES: Record<string, string> = {
  '--ss-fg': 'semantic colors.fg.DEFAULT',
  '--ss-fg-muted': 'semantic colors.fg.muted',
  '--ss-bg': 'semantic colors.bg.DEFAULT',
  '--ss-bg-subtle': 'semantic colors.bg.subtle',
  '--ss-bg-muted': 'semantic colors.bg.muted',
  '--ss-bg-error': 'semantic colors.bg.error',
  '--ss-border': 'semantic colors.border.DEFAULT',
  '--ss-border-emphasized': 'semantic colors.border.emphasized',
  '--ss-gray-400': 'colors.gray.400',
  '--ss-gray-500': 'colors.gray.500',
  '--ss-gray-900': 'colors.gray.900',
  '--ss-purple-fg': 'semantic colors.purple.fg',
  '--ss-purple-solid': 'semantic colors.purple.solid',
  '--ss-purple-subtle': 'semantic colors.purple.subtle',
  '--ss-purple-200': 'colors.purple.200',
  '--ss-purple-300': 'colors.purple.300',
  '--ss-purple-ring': 'semantic colors.purple.focusRing',
  '--ss-z-sticky': 'zIndex.sticky',
  '--ss-z-overlay': 'zIndex.overlay',
  '--ss-z-skip-link': 'zIndex.skipNav',
  '--ss-z-toast': 'zIndex.toast',
};

type Tree = Record<string, unknown>;

function at(tree: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((node, key) => (node as Tree | undefined)?.[key], tree);
}

/** A token's value, following `{colors.gray.600}` references, a semantic token by its light value. */
function tokenValue(name: string): string {
  const semantic = name.startsWith('semantic ');
  const dotted = semantic ? name.slice('semantic '.length) : name;
  const node = at(semantic ? semanticTokens : tokens, dotted) as { value?: unknown } | undefined;
  let value = node?.value;
  if (value && typeof value === 'object') {
    // Chakra's documented condition keys of a semantic token: the light scheme, else the base value.
    const { _light, base } = value as { _light?: unknown; base?: unknown };
    value = _light ?? base;
  }
  if (value === undefined) throw new Error(`no Chakra token ${name}`);
  const reference = /^\{(.+)\}$/.exec(String(value));
  return reference ? tokenValue(at(tokens, reference[1]) ? reference[1] : `semantic ${reference[1]}`) : String(value);
}

function plainVariables(): Map<string, string> {
  const root = /:root\s*\{([^}]*)\}/.exec(readFileSync(BASE_CSS, 'utf8'))![1];
  return new Map([...root.matchAll(/(--ss-[\w-]+)\s*:\s*([^;]+);/g)].map((match) => [match[1], match[2].trim()]));
}

describe("the plain-CSS shell's tokens (components/plain/base.css)", () => {
  it("copies Chakra's token values exactly", () => {
    const plain = plainVariables();
    const differ = Object.entries(COPIES).flatMap(([variable, token]) => {
      const ours = plain.get(variable)?.toLowerCase();
      const theirs = tokenValue(token).toLowerCase();
      return ours === theirs ? [] : [`${variable}: ${ours ?? 'missing'}, Chakra's ${token} is ${theirs}`];
    });
    expect(differ).to.deep.equal([]);
  });

  it("names every colour and layer variable it declares in this test's table (a new one must say what it copies)", () => {
    const unlisted = [...plainVariables().keys()].filter((name) => !(name in COPIES) && !['--ss-font', '--ss-shadow-sm', '--ss-shadow-lg'].includes(name));
    expect(unlisted).to.deep.equal([]);
  });

  it('uses Chakra’s body font stack', () => {
    const normalise = (stack: string) => stack.replace(/["']/g, '').replace(/\s+/g, ' ');
    expect(normalise(plainVariables().get('--ss-font')!)).to.equal(normalise(tokenValue('fonts.body')));
  });
});
