import { execFileSync } from 'node:child_process';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth';

describe('limitHeapGrowth', () => {
  it('sets V8 heap growing percent when node was started without it', () => {
    const set: string[] = [];
    expect(limitHeapGrowth(['--enable-source-maps'], (flags) => set.push(flags))).toBe(true);
    expect(set).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
  });

  it.each([['--heap-growing-percent=20'], ['--heap_growing_percent=20'], ['--heap-growing-percent']])("leaves the operator's %s alone", (arg) => {
    const set: string[] = [];
    expect(limitHeapGrowth([arg], (flags) => set.push(flags))).toBe(false);
    expect(set).toEqual([]);
  });

  // V8 ignores a flag it does not know: a Node upgrade that drops this one must fail here.
  it('names a flag this node still knows', () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    expect(options).toMatch(/^\s*--heap-growing-percent \(/m);
  });
});
