// The hosted payment page's browser bundles (`npm run build:page`, part of `npm run build`; the
// e2e and browser suites run it in their global setup): Vite (rolldown) builds each entry into one
// self-contained classic script (IIFE: loaded by a nonce'd <script>, no module import to allow in
// the CSP) under dist/pay/, and writes dist/pay/manifest.json, which the service reads at start:
//
//   { "page": "hosted-page-<hash>.js", "embed": "embed.js", "manage": "payer-manage-<hash>.js", "drivers": { "<name>": "driver-<name>-<hash>.js" } }
//
// Entries: the page script and the embed script (src/modules/hosted-page/page/), and every driver
// a gateway slice brings: any `src/modules/<slice>/browser/driver/<name>.driver.ts` (and, with
// --test-drivers, any `test/**/browser/driver/<name>.driver.ts` of a test-only slice). No central
// list: a slice registers its driver by having the file; its adapter names it in
// `hostedCheckout.driver`. The page's and the drivers' names carry a content hash (served
// immutable); embed.js keeps its name, since merchants' pages load it by that address.
// Type-checking is `tsc -p tsconfig.browser.json`, run before this script.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'dist', 'pay');
const DRIVER_FILE = /^([a-z][a-z0-9_]*)\.driver\.ts$/;

/** Every `<name>.driver.ts` directly in a `browser/driver/` folder under `dir`. */
function findDrivers(dir, found = []) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') findDrivers(path, found);
    } else if (DRIVER_FILE.test(entry.name) && relative(root, dir).split(/[\\/]/).slice(-2).join('/') === 'browser/driver') {
      found.push(path);
    }
  }
  return found;
}

/** One entry bundled into a single IIFE script; returns its code. */
async function bundle(entry) {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      emptyOutDir: false,
      target: 'es2022',
      // Readable in the browser's tools, as the hand-written script was; the bundles are small.
      minify: false,
      sourcemap: false,
      reportCompressedSize: false,
      lib: { entry, formats: ['iife'], name: 'checkoutBundle', fileName: () => 'bundle.js' },
      rolldownOptions: { output: { extend: false } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((item) => item.output);
  const chunks = outputs.filter((item) => item.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`${relative(root, entry)}: expected one script, got ${chunks.length}`);
  return chunks[0].code;
}

function hashed(prefix, code) {
  return `${prefix}-${createHash('sha256').update(code).digest('base64url').replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}.js`;
}

async function main() {
  const withTestDrivers = process.argv.includes('--test-drivers');
  const driverFiles = [...findDrivers(join(root, 'src', 'modules')), ...(withTestDrivers ? findDrivers(join(root, 'test')) : [])].sort();
  const manifest = { page: '', embed: 'embed.js', manage: '', drivers: {} };
  const files = new Map();

  const page = await bundle(join(root, 'src/modules/hosted-page/page/hosted-page.ts'));
  manifest.page = hashed('hosted-page', page);
  files.set(manifest.page, page);
  files.set(manifest.embed, await bundle(join(root, 'src/modules/hosted-page/page/embed.ts')));
  // The payer's manage page's card script (src/modules/payer-manage/page/).
  const manage = await bundle(join(root, 'src/modules/payer-manage/page/manage-card.ts'));
  manifest.manage = hashed('payer-manage', manage);
  files.set(manifest.manage, manage);
  for (const file of driverFiles) {
    const name = DRIVER_FILE.exec(basename(file))[1];
    if (manifest.drivers[name]) throw new Error(`Two drivers named ${name}: ${relative(root, file)} and another slice's. A driver's name is unique.`);
    const code = await bundle(file);
    manifest.drivers[name] = hashed(`driver-${name}`, code);
    files.set(manifest.drivers[name], code);
  }

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, code] of files) writeFileSync(join(outDir, name), code);
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

await main();
