#!/usr/bin/env node
// Points citations of the interface's decisions at the repository's own page: every
// "decisions §N" (or "Decisions §N") in a tracked text file becomes "docs/decisions.md §N"; the
// rest of the citation ("§7/§8", "§9, §14", "§3 and §11") is left as it is. Idempotent: a citation
// that already names docs/decisions.md is not touched.
//
// It also lists, without changing them, references that leave the repository (the shared folder
// the project was started from); those need a sentence rewritten by hand. Exit 1 when any is left.
//
//   node scripts/rewrite-doc-references.mjs           rewrite, print each file and the count
//   node scripts/rewrite-doc-references.mjs --check   change nothing; exit 1 when a rewrite is due
//
// test/docs-references.spec.ts holds the repository to the same rules.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

/** Text files worth reading; generated and third-party files never cite the decisions. */
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|ya?ml|sh|html|css|snap)$|(^|\/)(Dockerfile|run)$/;
const SKIP = [/^package-lock\.json$/, /^clients\/typescript\/(openapi\.json|schema\.d\.ts)$/, /^test\/contracts\/[^/]+\/(reference|schemas)\//];

// The word "decisions", a space, "§" and a digit, not preceded by a path: a citation already
// rewritten has ".md" before the space.
const CITATION = /(?<![\w./-])[Dd]ecisions (?=§\d)/g;
// Built from parts so this file does not itself hold the references it reports.
const OUTSIDE = [['..', 'shared'].join('/'), ['', 'work', 'shared'].join('/')];

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file && TEXT.test(file) && !SKIP.some((pattern) => pattern.test(file)));

let total = 0;
const outside = [];
for (const file of files) {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const count = (text.match(CITATION) ?? []).length;
  if (count > 0) {
    total += count;
    console.log(`${String(count).padStart(3)}  ${file}`);
    if (!check) writeFileSync(path, text.replace(CITATION, 'docs/decisions.md '));
  }
  text.split('\n').forEach((line, index) => {
    if (OUTSIDE.some((reference) => line.includes(reference))) outside.push(`${file}:${index + 1}: ${line.trim()}`);
  });
}

console.log(`${total} citation(s) ${check ? 'to rewrite' : 'rewritten'} to docs/decisions.md §N`);
if (outside.length > 0) {
  console.log(`\nReferences outside the repository, to rewrite by hand:\n${outside.join('\n')}`);
}
process.exit((check && total > 0) || outside.length > 0 ? 1 : 0);
