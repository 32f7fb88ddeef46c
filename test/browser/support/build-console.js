// Global setup of the browser suite: the console tests drive the built admin console, so build it
// (tsc + Vite, a few seconds) unless BROWSER_SKIP_CONSOLE_BUILD is set (a build just ran).
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

module.exports = async function buildConsole() {
  const root = join(__dirname, '..', '..', '..');
  if (process.env.BROWSER_SKIP_CONSOLE_BUILD && existsSync(join(root, 'dist', 'console', 'index.html'))) return;
  execFileSync('npm', ['run', 'build:console', '--silent'], { cwd: root, stdio: 'inherit' });
};
