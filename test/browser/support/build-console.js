// Global setup of the browser suite: the pages it drives are built ones. The hosted page's bundles
// are type-checked and built at every run (a few seconds; with the test-only slices' drivers); the
// console (tsc + Vite, a few seconds) unless BROWSER_SKIP_CONSOLE_BUILD is set (a build just ran).
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

module.exports = async function buildConsole() {
  const root = join(__dirname, '..', '..', '..');
  execFileSync('npm', ['run', 'build:page', '--silent', '--', '--test-drivers'], { cwd: root, stdio: 'inherit' });
  if (process.env.BROWSER_SKIP_CONSOLE_BUILD && existsSync(join(root, 'dist', 'console', 'index.html'))) return;
  execFileSync('npm', ['run', 'build:console', '--silent'], { cwd: root, stdio: 'inherit' });
};
