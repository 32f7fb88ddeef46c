import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parse } from '@formatjs/icu-messageformat-parser';
import { defineConfig, type Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const require = createRequire(import.meta.url);

/**
 * The console's catalogs (`src/i18n/<locale>.json`, ICU MessageFormat texts) compiled to FormatJS's
 * message ASTs at build time, what `formatjs compile --ast` writes: react-intl formats an AST
 * without parsing it, so the ICU parser is aliased to FormatJS's `no-parser` build below and not
 * shipped ("react-intl without parser"). A message that does not parse fails the build (the
 * catalog spec says which first). Still JSON, so Vite's own JSON handling takes it from here.
 */
function precompiledCatalogs(): Plugin {
  const catalog = /[\\/]src[\\/]i18n[\\/][a-z]{2}(-[A-Z]{2})?\.json$/;
  return {
    name: 'checkout-precompiled-catalogs',
    enforce: 'pre',
    transform(code, id) {
      if (!catalog.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, parse(text)]));
      return { code: JSON.stringify(compiled), map: null };
    },
  };
}

/** Every copy of the ICU parser (react-intl and @formatjs/intl bring their own) resolves to its no-parser build. */
const NO_PARSER = require.resolve('@formatjs/icu-messageformat-parser/no-parser.js');

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
  plugins: [precompiledCatalogs()],
  resolve: { alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: NO_PARSER }] },
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
