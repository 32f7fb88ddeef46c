// node --test docker/build-context.test.mjs: the build-context check finds what it must, with
// Docker's matching rules, on the repository's own .dockerignore and on temporary folders.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkContext, contextFiles, MUST_STAY_OUT_EXAMPLES, mustStayOutReason } from './build-context.mjs';

const repositoryRules = readFileSync(fileURLToPath(new URL('../.dockerignore', import.meta.url)), 'utf8');

const folders = [];
function folderWith(paths) {
  const root = mkdtempSync(join(tmpdir(), 'build-context-'));
  folders.push(root);
  for (const path of paths) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), 'x');
  }
  return root;
}
afterEach(() => {
  while (folders.length > 0) rmSync(folders.pop(), { recursive: true, force: true });
});

describe('the repository .dockerignore', () => {
  it('keeps every example of a path that must stay out of the context', () => {
    const root = folderWith(['package.json']);
    assert.deepEqual(checkContext(root, repositoryRules).admitted, []);
  });

  it('keeps out data/, env files, node_modules, .git, dist and test output present in the folder, and keeps the sources', () => {
    const root = folderWith([
      'package.json',
      'package-lock.json',
      'src/main.ts',
      'test/fakes/gateway-a.ts',
      'data/secret.key',
      'data/checkout.sqlite',
      '.env',
      '.env.example',
      'docker/.env',
      'node_modules/x/index.js',
      '.git/HEAD',
      'dist/src/main.js',
      'coverage/lcov.info',
      'service.log',
    ]);
    const { files, present, admitted } = checkContext(root, repositoryRules);
    assert.deepEqual(files, ['package-lock.json', 'package.json', 'src/main.ts', 'test/fakes/gateway-a.ts']);
    assert.deepEqual(present, []);
    assert.deepEqual(admitted, []);
  });
});

describe('checkContext', () => {
  it('reports a present secret and the examples a weaker .dockerignore lets in', () => {
    const root = folderWith(['src/main.ts', 'data/secret.key', 'docker/.env']);
    // `.env` without `**/` matches at the root only, as in Docker; `data` is missing
    const { present, admitted } = checkContext(root, 'node_modules\n.git\n.env*\n');
    assert.deepEqual(
      present.map((f) => f.path),
      ['data/secret.key', 'docker/.env'],
    );
    for (const path of ['data/secret.key', 'docker/.env', 'dist/src/main.js', 'coverage/lcov.info', 'clients/typescript/node_modules/openapi-fetch/package.json']) {
      assert.ok(
        admitted.some((f) => f.path === path),
        path,
      );
    }
    assert.ok(!admitted.some((f) => f.path === '.env' || f.path === '.git/HEAD' || f.path === 'node_modules/better-sqlite3/package.json'));
  });

  it('reports every example when there are no rules at all', () => {
    const root = folderWith(['src/main.ts']);
    assert.equal(checkContext(root, '').admitted.length, MUST_STAY_OUT_EXAMPLES.length);
  });
});

describe('contextFiles', () => {
  it('walks an excluded folder only for a `!` line that may re-include something in it', () => {
    const root = folderWith(['docs/a.md', 'docs/keep/b.md', 'docs/keep/c.md', 'other/d.md']);
    assert.deepEqual(contextFiles(root, 'docs\n!docs/keep\nother\n'), ['docs/keep/b.md', 'docs/keep/c.md']);
    assert.deepEqual(contextFiles(root, 'docs\n!**/c.md\n'), ['docs/keep/c.md', 'other/d.md']);
  });

  it('lists a symlink as it is and does not follow it (as Docker sends it)', () => {
    const root = folderWith(['src/main.ts', 'elsewhere/secret.key']);
    symlinkSync(join(root, 'elsewhere'), join(root, 'linked'));
    assert.deepEqual(contextFiles(root, 'elsewhere\n'), ['linked', 'src/main.ts']);
  });

  it('matches case-sensitively, as Docker does on Linux', () => {
    const root = folderWith(['Data/readme.md', 'data/secret.key']);
    assert.deepEqual(contextFiles(root, 'data\n'), ['Data/readme.md']);
  });
});

describe('mustStayOutReason', () => {
  it('names each example, and none of the sources', () => {
    for (const path of MUST_STAY_OUT_EXAMPLES) assert.notEqual(mustStayOutReason(path), null, path);
    for (const path of ['src/main.ts', 'src/database/migrations/index.ts', 'test/e2e/auth.e2e-spec.ts', 'docs/security.md', 'package.json', 'src/modules/hosted-page/assets/hosted-page.js']) {
      assert.equal(mustStayOutReason(path), null, path);
    }
  });
});
