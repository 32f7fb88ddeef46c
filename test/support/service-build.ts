import { transformFileSync } from '@swc/core';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The compiler settings of the unit project (jest.config.js): tsc's emitted code, decorators and metadata included. */
const SWC_OPTIONS = {
  swcrc: false,
  module: { type: 'commonjs' as const },
  jsc: {
    target: 'es2022' as const,
    parser: { syntax: 'typescript' as const, decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    keepClassNames: true,
  },
};

/** The files nest-cli.json copies as assets (the form stylesheet, the payer's catalogs), as patterns of their path under src/. */
const ASSETS: RegExp[] = (
  JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as { compilerOptions: { assets: Array<{ include: string }> } }
).compilerOptions.assets.map(({ include }) => new RegExp(`^${include.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`));

export interface ServiceBuild {
  /** `node <main>` starts the service. */
  main: string;
  remove(): void;
}

/**
 * The service's sources compiled to a temporary directory (about a second), for e2e tests that
 * must run it as a separate process (a real SIGKILL) without depending on a fresh `npm run build`.
 * Compiled file by file as the unit tests are; unlike `nest build` without the OpenAPI plugin's
 * metadata, which the service only uses to describe its routes. The assets nest-cli.json names
 * (the form stylesheet, the payer's catalogs) are copied and `node_modules` is linked; the hosted page's browser
 * bundles are not built (the page answers 503 there: these tests do not pay on it).
 */
export function buildServiceForTest(): ServiceBuild {
  const out = mkdtempSync(join(tmpdir(), 'checkout-build-'));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      const target = join(out, relative(ROOT, path));
      if (path.endsWith('.ts') && !path.endsWith('.spec.ts')) {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target.replace(/\.ts$/, '.js'), transformFileSync(path, { ...SWC_OPTIONS, filename: path }).code);
      } else if (ASSETS.some((asset) => asset.test(relative(join(ROOT, 'src'), path)))) {
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(path, target);
      }
    }
  };
  walk(join(ROOT, 'src'));
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  return { main: join(out, 'src', 'main.js'), remove: () => rmSync(out, { recursive: true, force: true }) };
}
