/**
 * Our Chakra system: the base config plus the default tokens, and only the recipes of the
 * components we render. `defaultSystem` would ship every recipe.
 * Rendering a recipe-backed component that is missing here leaves it unstyled: add its
 * recipe below when you start using one (e.g. `selectSlotRecipe`, `tableSlotRecipe`). The build
 * marks Chakra's define* helpers pure (vite.config.ts), so recipes not named here are dropped.
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
  semanticTokens,
  spinnerRecipe,
  textStyles,
  tokens,
} from '@chakra-ui/react/theme';

const config = defineConfig({
  preflight: true,
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss: {
    ...globalCss,
    html: { ...globalCss.html, colorPalette: 'purple' },
    body: { minHeight: '100vh' },
  },
  theme: {
    breakpoints,
    keyframes: {
      ...keyframes,
      // The logo carousel's track slides left by one slot on every rotation.
      'carousel-slide': { from: { transform: 'translateX(0)' } },
    },
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      button: buttonRecipe,
      heading: headingRecipe,
      input: inputRecipe,
      link: linkRecipe,
      spinner: spinnerRecipe,
    },
    slotRecipes: {
      // Forms: the FormField wrapper (components/ui/FormField.tsx) renders these.
      checkbox: checkboxSlotRecipe,
      dialog: dialogSlotRecipe,
      field: fieldSlotRecipe,
    },
  },
});

export const system = createSystem(defaultBaseConfig, config);
