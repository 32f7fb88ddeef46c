import { existsSync } from 'node:fs';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

/** Debian's chromium; `.ci/run` installs it when missing. CHROMIUM_PATH overrides. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless chromium with the flags this closed network needs: without the background-networking
 * ones it keeps dialling Google's hosts and the refused connections slow every page.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`No chromium at ${chromiumPath}: apt-get install chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Collects the page's uncaught errors and console errors, so a test can fail on any of them
 * (a page that "works" while throwing is not working).
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  return errors;
}

/**
 * Waits until `expression` is truthy in the page. Not `waitForFunction`: when its first check fails
 * it polls by evaluating the predicate inside the page, which a `script-src 'self'` CSP refuses as
 * eval (seen failing in CI whenever the gallery's images were still loading); `evaluate` goes
 * through the DevTools protocol, which the page's CSP does not govern.
 */
export async function waitForExpression(target: Page | Frame, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await target.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
