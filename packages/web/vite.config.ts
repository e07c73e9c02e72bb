import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The HTTP server (packages/http) serves dist/ in production; in development Vite serves the
// app and forwards the API and uploaded media to that server.
const backend = 'http://127.0.0.1:3000';

/**
 * The entry (main.tsx) is small and imports the store, React and the app dynamically, once the
 * server-rendered page has painted. Those chunks are deliberately not modulepreloaded from
 * index.html: a request started before the first paint counts towards the page's largest
 * contentful paint (Lighthouse's simulation adds its download), although nothing on that paint
 * needs it. The entry and the bundler's two small runtime chunks are the only scripts the HTML
 * names, and they are fetched at low priority, behind the page's own images.
 */
function lowPriorityScripts(): Plugin {
  return {
    name: 'subshare:low-priority-scripts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        return html
          .replace(/<script type="module"(?![^>]*fetchpriority)/g, '<script type="module" fetchpriority="low"')
          .replace(/<link rel="modulepreload"(?![^>]*fetchpriority)/g, '<link rel="modulepreload" fetchpriority="low"');
      },
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), lowPriorityScripts()],
  resolve: {
    // The form rules shared with the server, taken from their TypeScript source (no server build
    // needed). An alias rather than the "source" export condition, which third-party packages
    // (@internationalized/date) also publish and which must not apply to them.
    alias: {
      '@subshare/core/validation': fileURLToPath(new URL('../core/src/validation/index.ts', import.meta.url)),
      // The storefront's plain-HTML contract (cookie names, form fields): constants, no imports.
      '@subshare/core/storefront': fileURLToPath(new URL('../core/src/storefront/index.ts', import.meta.url)),
      // The error dictionary (pure data): the Korean texts are keyed by it and filled as the English
      // messages are, with fill-in alone (the first download does without the dictionary).
      '@subshare/core/wire/errors': fileURLToPath(new URL('../core/src/wire/errors.ts', import.meta.url)),
      '@subshare/core/wire/fill-in': fileURLToPath(new URL('../core/src/wire/fill-in.ts', import.meta.url)),
      // The numbered kinds (payment methods, order states, platform categories): constants, no imports.
      '@subshare/core/wire/enums': fileURLToPath(new URL('../core/src/wire/enums.ts', import.meta.url)),
      // The numbers promised to buyers (reminder days, activation hours): constants, no imports.
      '@subshare/core/promises': fileURLToPath(new URL('../core/src/promises/index.ts', import.meta.url)),
      // The pages' paths and link builders (pure data, no imports): the router and every link.
      '@subshare/core/pages': fileURLToPath(new URL('../core/src/pages/index.ts', import.meta.url)),
      // Korean particles for the texts, without the form rules (and yup) of '@subshare/core/validation'.
      '@subshare/core/korean': fileURLToPath(new URL('../core/src/validation/korean-particles.ts', import.meta.url)),
    },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/media': { target: backend, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/media': { target: backend, changeOrigin: true },
    },
  },
  // The server's build (`vite build --ssr src/entry-server.tsx`) bundles every library, so
  // packages/http loads dist-server/entry-server.js without the web's dependencies installed.
  ssr: { noExternal: true, target: 'node' },
  // Fixed at build time, as in the browser's build: libraries that pick their build by NODE_ENV
  // at run time (react-router-dom's CommonJS entry) would otherwise bring a second copy of their
  // contexts into the bundle when the server runs with another NODE_ENV (tests).
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : undefined,
  build: isSsrBuild
    ? { outDir: 'dist-server', emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        // One stylesheet, linked from index.html's head: the server-rendered page is styled at its
        // first paint although the components' code (and their CSS modules) load after it.
        cssCodeSplit: false,
        // Content-hashed names let the server cache dist/assets/* forever and index.html never.
        assetsDir: 'assets',
        rolldownOptions: {
          treeshake: {
            // Chakra's theme module builds its default config (every recipe) at load time through
            // these identity helpers. Marked pure, the unused recipes are dropped and only those our
            // system names (components/ui/system.ts) stay in the Chakra chunk (app/chakra/ChakraRoot.tsx,
            // loaded on demand: the storefront's first screen has no Chakra).
            manualPureFunctions: [
              'defineConfig',
              'defineRecipe',
              'defineSlotRecipe',
              'defineTokens',
              'defineSemanticTokens',
              'defineTextStyles',
              'defineLayerStyles',
              'defineAnimationStyles',
              'defineKeyframes',
              'defineGlobalStyles',
            ],
          },
          output: {
            // The storefront's first download in three chunks besides the entry, one per start-up
            // step (main.tsx): the store, React, and the app (each with all it imports statically).
            // Left to itself the bundler splits out every module a lazy chunk shares with them (an
            // API module, the JSX runtime): eleven files in all, each with its ~1 KiB of response
            // headers and its own request. The preload helper joins the bundler's own runtime
            // (which stays a chunk of its own): captured into the store's group, it would make the
            // entry import the store before the first paint. For the same reason nothing the entry
            // imports may be imported by the app (app/earlyChoices.ts, ssr/stateElement.ts).
            codeSplitting: {
              groups: [
                { name: 'runtime', test: /rolldown[:/]runtime|vite\/preload-helper/, priority: 4 },
                { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
                { name: 'store', test: /[\\/]src[\\/]app[\\/]startStore\.ts$/, includeDependenciesRecursively: true, priority: 2 },
                { name: 'app', test: /[\\/]src[\\/]app[\\/]startReact\.tsx$/, includeDependenciesRecursively: true, priority: 1 },
              ],
            },
            entryFileNames: 'assets/[name]-[hash].js',
            chunkFileNames: 'assets/[name]-[hash].js',
            assetFileNames: 'assets/[name]-[hash][extname]',
          },
        },
      },
}));
