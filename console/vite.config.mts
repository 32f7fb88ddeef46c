import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The admin console: built into dist/console/ (served by the service at /admin/). JSX goes
 * through Vite's own transformer (React's automatic runtime); no inline script or style is
 * emitted, so the page runs under `script-src 'self'; style-src 'self'`.
 */
export default defineConfig({
  root: here,
  base: '/admin/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Everything is a file of its own: a data: URL is allowed for images only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: true,
    rolldownOptions: {
      // React Router marks its modules "use client" (a server-components hint); meaningless in a
      // browser-only bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
