#!/usr/bin/env node
// What `docker build` would send as its context from the repository root, with .dockerignore
// applied as Docker applies it (@balena/dockerignore ports Docker's own matcher: `data` is
// anchored at the root, `**/` reaches any depth, a `!` line re-includes). Prints a summary (every
// path with --list) and exits 1 when anything that must stay out of an image's context would be
// sent. Two checks, so that the rules are proven even where the files are absent (a fresh clone
// has no data/ and no .env):
//   1. every file actually present, walked without following symlinks (as Docker sends them);
//   2. a fixed list of example paths (MUST_STAY_OUT_EXAMPLES) run through the rules.
//
//   node docker/build-context.mjs [--list] [--root <dir>]
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import dockerignore from '@balena/dockerignore';

/** Why a context path must never reach the daemon, or null when it may. Paths are relative, with `/`. */
export function mustStayOutReason(path) {
  const segments = path.split('/');
  const name = segments[segments.length - 1];
  const top = segments[0];
  if (top === 'data') return 'data/ (the SQLite database, the generated secret.key, the mail outbox)';
  if (segments.includes('.git')) return 'git metadata';
  if (segments.some((s) => s.startsWith('.env'))) return 'an environment file (secrets)';
  if (segments.includes('node_modules')) return 'node_modules (the image installs its own)';
  if (top === 'dist') return 'build output (the image builds its own)';
  if (top === 'coverage' || top === 'test-results') return 'test output';
  if (/\.(sqlite|sqlite3|db)(-journal|-wal|-shm)?$/.test(name)) return 'a database file';
  if (/\.(log|cpuprofile|heapprofile|heapsnapshot)$/.test(name)) return 'a log or a profile (test or bench output)';
  if (segments.some((s) => s === 'profiles' || s === 'bench-results')) return 'bench output';
  return null;
}

/** One example of each kind of path mustStayOutReason names, at the places it would appear. */
export const MUST_STAY_OUT_EXAMPLES = [
  'data/checkout.sqlite',
  'data/secret.key',
  'data/outbox/1.eml',
  '.git',
  '.git/HEAD',
  '.env',
  '.env.local',
  '.env.production',
  '.env.example',
  'docker/.env',
  'docker/.env.example',
  'node_modules/better-sqlite3/package.json',
  'clients/typescript/node_modules/openapi-fetch/package.json',
  'dist/src/main.js',
  'dist/console/index.html',
  'coverage/lcov.info',
  'test-results/junit.xml',
  'checkout.sqlite',
  'test/e2e/checkout.sqlite-wal',
  'npm-debug.log',
  'logs/service.log',
  'bench/profiles/sqlite-boot.cpuprofile',
  'boot.heapsnapshot',
  'bench-results/run1.json',
];

/** The `!` patterns of a .dockerignore, as Docker cleans them (no leading `/`, no trailing `/`). */
export function exceptionPatterns(rulesText) {
  return rulesText
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.startsWith('!'))
    .map((line) => line.slice(1).trim().replace(/^\/+/, '').replace(/\/+$/, ''))
    .filter((line) => line !== '');
}

/**
 * Whether an exception pattern might re-include something below the excluded directory `dir`:
 * each literal segment must equal the directory's segment at that depth; a segment with a wildcard
 * (or `**`) is taken to match, so the answer errs towards walking a directory.
 */
export function mayReincludeBelow(dir, pattern) {
  const dirSegments = dir.split('/');
  const patternSegments = pattern.split('/');
  for (let i = 0; i < patternSegments.length && i < dirSegments.length; i++) {
    const segment = patternSegments[i];
    if (segment === '**') return true;
    if (/[*?[\\]/.test(segment)) continue;
    if (segment !== dirSegments[i]) return false;
  }
  return true;
}

/** A Docker-compatible matcher for the rules' text; case-sensitive, as Docker is on Linux. */
export function contextMatcher(rulesText) {
  return dockerignore({ ignorecase: false }).add(rulesText);
}

/**
 * Every path the context holds below `root` (files and symlinks; empty directories are left out
 * of the list), sorted. An excluded directory is walked only when an exception may re-include
 * something in it, as Docker does.
 */
export function contextFiles(root, rulesText) {
  const matcher = contextMatcher(rulesText);
  const exceptions = exceptionPatterns(rulesText);
  const files = [];
  const walk = (relativeDir) => {
    for (const entry of readdirSync(join(root, relativeDir), { withFileTypes: true })) {
      const path = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      const ignored = matcher.ignores(path);
      if (entry.isDirectory()) {
        if (!ignored || exceptions.some((pattern) => mayReincludeBelow(path, pattern))) walk(path);
      } else if (!ignored) {
        files.push(path);
      }
    }
  };
  walk('');
  return files.sort();
}

/** The findings for one context: present paths that must stay out, and example paths the rules let in. */
export function checkContext(root, rulesText) {
  const files = contextFiles(root, rulesText);
  const matcher = contextMatcher(rulesText);
  const present = files.map((path) => ({ path, reason: mustStayOutReason(path) })).filter((f) => f.reason !== null);
  const admitted = MUST_STAY_OUT_EXAMPLES.filter((path) => !matcher.ignores(path)).map((path) => ({ path, reason: mustStayOutReason(path) }));
  return { files, present, admitted };
}

function summary(root, files) {
  const byTop = new Map();
  let bytes = 0;
  for (const path of files) {
    const size = lstatSync(join(root, path)).size;
    bytes += size;
    const top = path.includes('/') ? `${path.split('/')[0]}/` : path;
    const entry = byTop.get(top) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += size;
    byTop.set(top, entry);
  }
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  const lines = [...byTop].sort(([a], [b]) => a.localeCompare(b)).map(([top, e]) => `  ${top.padEnd(28)} ${String(e.count).padStart(5)} file(s) ${kib(e.bytes).padStart(9)}`);
  return [`Build context of ${root}: ${files.length} files, ${kib(bytes)}`, ...lines].join('\n');
}

function main() {
  const { values } = parseArgs({ options: { list: { type: 'boolean', default: false }, root: { type: 'string' } } });
  const root = resolve(values.root ?? join(fileURLToPath(new URL('.', import.meta.url)), '..'));
  let rulesText;
  try {
    rulesText = readFileSync(join(root, '.dockerignore'), 'utf8');
  } catch {
    console.error(`No .dockerignore in ${root}: the whole folder (node_modules, data/, .env, .git) would be sent.`);
    process.exit(1);
  }
  const { files, present, admitted } = checkContext(root, rulesText);
  console.log(summary(root, files));
  if (values.list) for (const path of files) console.log(`  ${path}`);
  for (const { path, reason } of present) console.error(`In the build context: ${path}: ${reason}`);
  for (const { path, reason } of admitted) console.error(`.dockerignore lets in ${path}: ${reason}`);
  if (present.length > 0 || admitted.length > 0) {
    console.error('The build context is not clean: add the paths above to .dockerignore.');
    process.exit(1);
  }
  console.log('Build context clean: no data/, .env*, node_modules, .git, dist, test or bench output.');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
