// The hosted page's browser bundles (dist/pay/: the page script, embed.js, every slice's driver)
// for the suites that serve the page, built from the sources at each run (about two seconds), so a
// test never meets a stale bundle. --test-drivers adds the drivers of test-only gateway slices
// (test/**/browser/driver/<name>.driver.ts); `npm run build` leaves them out.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');

module.exports = function buildPageBundles() {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-hosted-page.mjs'), '--test-drivers'], { cwd: root, stdio: 'inherit' });
};
