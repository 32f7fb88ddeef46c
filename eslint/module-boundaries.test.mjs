// Lints eslint/fixtures/project with the real config (eslint.config.mjs) and checks that the
// import rules and the gateway-id rule report exactly the lines marked
// `// expect: <kind>[, <kind>...]`, where a kind is `index` (another area imported past its
// index.ts), `slice` (a gateway slice imported outside app.module.ts), `direction` (an import
// against the module direction), `cycle`, `gateway-id` (a gateway id named outside the slices and
// the catalog, in a comparison or as data), `slice-route` (a slice's route named there;
// eslint/gateway-ids.mjs) or `repository-save` (save() on an injected repository, everywhere in
// src/ but unit specs; eslint/repository-writes.mjs): each zone, no-cycle and the gateway-naming selectors fire where they
// should and nowhere else (the slices, the catalog at its place, unit specs, OpenAPI examples and
// import sources stay allowed), and `.js` specifiers resolve to `.ts` files
// (an unresolved import would be skipped by both import rules, and reported by no-unresolved).
// Run by `npm run lint` before the lint itself: node --test eslint/module-boundaries.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { checkoutLintConfig } from '../eslint.config.mjs';

const fixture = fileURLToPath(new URL('./fixtures/project/', import.meta.url));

/** The kind of a problem, from its rule and (for the boundary zones) the zone's message. */
function kindOf(message) {
  if (message.ruleId === 'import-x/no-cycle') return 'cycle';
  if (message.ruleId === 'no-restricted-syntax' && message.message.includes('(gateway id named)')) return 'gateway-id';
  if (message.ruleId === 'no-restricted-syntax' && message.message.includes('(slice route named)')) return 'slice-route';
  if (message.ruleId === 'no-restricted-syntax' && message.message.includes('(repository save)')) return 'repository-save';
  if (message.ruleId === 'import-x/no-restricted-paths') {
    if (message.message.includes('through its index.ts')) return 'index';
    if (message.message.includes('Only src/app.module.ts imports a gateway slice')) return 'slice';
    if (message.message.includes('(import direction)')) return 'direction';
  }
  return `${message.ruleId}: ${message.message}`;
}

function expectedProblems(results) {
  const expected = [];
  for (const { filePath } of results) {
    readFileSync(filePath, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const marker = /\/\/ expect: (.+)$/.exec(line);
        if (!marker) return;
        for (const kind of marker[1].split(',')) expected.push(`${relative(fixture, filePath)}:${index + 1} ${kind.trim()}`);
      });
  }
  return expected.sort();
}

test('the import rules and the gateway-naming rule report exactly the marked lines of the fixture project', async () => {
  const eslint = new ESLint({ cwd: fixture, overrideConfigFile: true, overrideConfig: checkoutLintConfig(fixture) });
  const results = await eslint.lintFiles([join(fixture, 'src'), join(fixture, 'test')]);
  assert.ok(results.length >= 20, `only ${results.length} fixture files were linted`);

  const reported = results
    .flatMap((result) =>
      result.messages
        // Only the import rules and the gateway-id rule are under test; a parse error (no ruleId) fails it as well.
        .filter((message) => !message.ruleId || message.ruleId.startsWith('import-x/') || message.ruleId === 'no-restricted-syntax')
        .map((message) => `${relative(fixture, result.filePath)}:${message.line} ${kindOf(message)}`),
    )
    .sort();
  assert.deepEqual(reported, expectedProblems(results));
});
