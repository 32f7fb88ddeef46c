import { CHECKOUT_VERSION } from '../../config/index.js';

/** Releases this code knows how to upgrade to, oldest first. The last one is the running code. */
export const KNOWN_RELEASES = ['1.5.2', CHECKOUT_VERSION] as const;

export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
