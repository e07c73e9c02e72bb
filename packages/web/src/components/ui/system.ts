/**
 * Our Chakra system: the base config plus the default tokens, and only the recipes of the
 * components we render. `defaultSystem` would ship every recipe.
 * Chakra is not part of the storefront's first screen (shell, home, platform page, not-found:
 * plain CSS, components/plain/): this module is loaded with app/chakra/ChakraRoot.tsx, the
 * first time a page or dialog built with Chakra renders (login, checkout, panel, admin, static
 * pages, the language dialog), and the system is created then, once.
 * Rendering a recipe-backed component that is missing here leaves it unstyled: add its
 * recipe below when you start using one (e.g. `selectSlotRecipe`, `tableSlotRecipe`). The build
 * marks Chakra's define* helpers pure (vite.config.ts), so recipes not named here are dropped.
 * The global CSS below (preflight, globalCss) is repeated for the plain-CSS shell in
 * components/plain/base.css: change one, change the other, or the shell shifts when Chakra loads.
 */
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  animationStyles,
  breakpoints,
  buttonRecipe,
  checkboxSlotRecipe,
  dialogSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  nativeSelectSlotRecipe,
  semanticTokens,
  spinnerRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  textareaRecipe,
  textStyles,
  tokens,
} from '@chakra-ui/react/theme';

/**
 * The colour palettes the shop paints with. Chakra builds a CSS variable (and a token lookup)
 * for every shade of every palette when the system is created, at start-up on the visitor's
 * phone: the palettes nobody uses (yellow, teal, pink, cyan) are left out, which takes about a
 * third off that work. Add a palette here before using it (`colorPalette`, `bg="teal.500"`).
 */
// Kept: gray, red, orange, green, blue (the semantic bg/fg/border tokens name those) and purple.
const UNUSED_PALETTES = ['yellow', 'teal', 'pink', 'cyan'];

function withoutUnusedPalettes<T extends Record<string, unknown>>(colors: T): T {
  return Object.fromEntries(Object.entries(colors).filter(([name]) => !UNUSED_PALETTES.includes(name))) as T;
}

/**
 * The shop has one (light) colour scheme: semantic tokens keep their light value only, so no
 * dark-mode variables are built either. `{ value: { _light: a, _dark: b } }` becomes `{ value: a }`.
 */
function lightOnly<T>(node: T): T {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const entries = Object.entries(node).map(([key, child]) => {
    if (key === 'value' && typeof child === 'object' && child !== null && ('_light' in child || 'base' in child)) {
      const { _light, base } = child as { _light?: unknown; base?: unknown };
      return [key, _light ?? base];
    }
    return [key, lightOnly(child)];
  });
  return Object.fromEntries(entries) as T;
}

const config = defineConfig({
  preflight: true,
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss: {
    ...globalCss,
    html: { ...globalCss.html, colorPalette: 'purple' },
    body: { minHeight: '100vh' },
    // A visible keyboard focus on every interactive element, including plain links (the
    // recipes of buttons, links and inputs draw their own ring on top of this).
    'a, button, select, summary, [tabindex]': {
      _focusVisible: { outline: '2px solid', outlineColor: 'purple.600', outlineOffset: '2px' },
    },
  },
  theme: {
    breakpoints,
    keyframes: {
      ...keyframes,
      // The logo carousel's track slides left by one slot on every rotation.
      'carousel-slide': { from: { transform: 'translateX(0)' } },
    },
    tokens: { ...tokens, colors: withoutUnusedPalettes(tokens.colors ?? {}) },
    semanticTokens: lightOnly({ ...semanticTokens, colors: withoutUnusedPalettes(semanticTokens.colors ?? {}) }),
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      button: buttonRecipe,
      heading: headingRecipe,
      input: inputRecipe,
      link: linkRecipe,
      spinner: spinnerRecipe,
      // The admin refund dialog's reason (FormField with `multiline`).
      textarea: textareaRecipe,
    },
    slotRecipes: {
      // Forms: the FormField wrapper (components/ui/FormField.tsx) renders these.
      checkbox: checkboxSlotRecipe,
      dialog: dialogSlotRecipe,
      field: fieldSlotRecipe,
      // The admin area: its page-size and platform selects and its lists.
      nativeSelect: nativeSelectSlotRecipe,
      // The panel's automatic renewal switch (features/panel/components/RenewalSwitch.tsx).
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
    },
  },
});

/**
 * Builds the system (tokens, CSS variables, recipes). Called once, by app/chakra/ChakraRoot.tsx
 * when Chakra is first needed: on a phone it costs 100–200 ms of main-thread work, which is why
 * the storefront's first screen does without it.
 */
export function createAppSystem() {
  return createSystem(defaultBaseConfig, config);
}

export type AppSystem = ReturnType<typeof createAppSystem>;
