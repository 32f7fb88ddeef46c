import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The admin console is an npm workspace of its own (console/package.json): its front-end packages
 * are declared there, never in the service's lists, and the lock file knows the workspace (so the
 * root `npm ci` installs everything and the image's `npm prune --omit=dev --workspaces=false` drops it).
 */
const ROOT = join(__dirname, '..', '..');
type Manifest = { name: string; private?: boolean; workspaces?: string[]; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const read = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;

/** Packages only a browser app needs; the service builds its own payer-page bundles with Vite, so Vite may be in both. */
const FRONT_END = ['react', 'react-dom', 'react-router', '@tanstack/react-query', '@types/react', '@types/react-dom'];

describe('the console as an npm workspace', () => {
  const root = read<Manifest>('package.json');
  const consolePackage = read<Manifest>('console/package.json');

  it('is the root package’s workspace, private, with its front-end packages as build-time dependencies', () => {
    expect(root.workspaces).toEqual(['console']);
    expect(consolePackage).toMatchObject({ name: 'checkout-admin-console', private: true });
    expect(consolePackage.dependencies ?? {}).toEqual({});
    expect(Object.keys(consolePackage.devDependencies ?? {})).toEqual(expect.arrayContaining([...FRONT_END, 'vite']));
  });

  it('leaves no front-end package in the service’s dependency lists', () => {
    const service = [...Object.keys(root.dependencies ?? {}), ...Object.keys(root.devDependencies ?? {})];
    expect(service.filter((name) => FRONT_END.includes(name) || name.startsWith('@tanstack/'))).toEqual([]);
  });

  it('is in the lock file as the workspace link, with the same declarations', () => {
    const lock = read<{ packages: Record<string, Manifest & { resolved?: string; link?: boolean }> }>('package-lock.json');
    expect(lock.packages[''].workspaces).toEqual(root.workspaces);
    expect(lock.packages['node_modules/checkout-admin-console']).toEqual({ resolved: 'console', link: true });
    expect(lock.packages.console.devDependencies).toEqual(consolePackage.devDependencies);
  });
});
