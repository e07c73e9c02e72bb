import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

// The HTTP server (packages/http) serves dist/ in production; in development Vite serves the
// app and forwards the API and uploaded media to that server.
const backend = 'http://127.0.0.1:3000';

/**
 * The entry (main.tsx) holds the store only and imports the interface (app/ui.tsx) dynamically,
 * so that the interface starts in a task of its own. Vite preloads only static imports from
 * index.html; this adds `<link rel="modulepreload">` for the interface chunk and its imports,
 * so the browser fetches (and compiles) them in parallel with the entry, not after it. Every
 * script and preload is fetched at low priority (see below).
 */
function preloadInterface(): Plugin {
  return {
    name: 'subshare:preload-interface',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const ui = chunks.find((chunk) => chunk.facadeModuleId?.replace(/\\/g, '/').endsWith('/src/app/ui.tsx'));
        if (!ui) throw new Error('preload-interface: no chunk for src/app/ui.tsx');
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          const chunk = chunks.find((candidate) => candidate.fileName === fileName);
          for (const imported of chunk?.imports ?? []) visit(imported);
        };
        visit(ui.fileName);
        const tags: HtmlTagDescriptor[] = [...files]
          .filter((fileName) => !html.includes(`/${fileName}"`))
          .map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}`, fetchpriority: 'low' },
            injectTo: 'head',
          }));
        // The first paint needs no script: the server pre-renders every storefront page. At low
        // priority the app's code waits behind the page's own images instead of competing with them.
        const lowPriority = html
          .replace(/<script type="module"(?![^>]*fetchpriority)/g, '<script type="module" fetchpriority="low"')
          .replace(/<link rel="modulepreload"(?![^>]*fetchpriority)/g, '<link rel="modulepreload" fetchpriority="low"');
        return { html: lowPriority, tags };
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadInterface()],
  resolve: {
    // The form rules shared with the server, taken from their TypeScript source (no server build
    // needed). An alias rather than the "source" export condition, which third-party packages
    // (@internationalized/date) also publish and which must not apply to them.
    alias: {
      '@subshare/core/validation': fileURLToPath(new URL('../core/src/validation/index.ts', import.meta.url)),
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
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Content-hashed names let the server cache dist/assets/* forever and index.html never.
    assetsDir: 'assets',
    rolldownOptions: {
      treeshake: {
        // Chakra's theme module builds its default config (every recipe) at load time through
        // these identity helpers. Marked pure, the unused recipes are dropped and only those our
        // system names (components/ui/system.ts) stay in the entry chunk.
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
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
});
