/**
 * What grew between two heap snapshots of the same process (e.g. `run1-after` and `run2-after` of
 * `npm run bench -- --profile DIR --memory-only --runs 3`): live objects by constructor or kind,
 * sorted by the growth of their self size. Usage:
 *   node dist/bench/profiling/heap-diff.js BEFORE.heapsnapshot AFTER.heapsnapshot [rows]
 */
import { tallyHeap } from './heap-snapshot.js';

function main(): void {
  const [beforeFile, afterFile, rowsArg] = process.argv.slice(2);
  if (!beforeFile || !afterFile) throw new Error('usage: node dist/bench/profiling/heap-diff.js BEFORE.heapsnapshot AFTER.heapsnapshot [rows]');
  const before = tallyHeap(beforeFile, true);
  const after = tallyHeap(afterFile, true);
  const kb = (n: number) => (n / 1024).toFixed(0);
  console.log(`Live objects: ${kb(before.total)} KB -> ${kb(after.total)} KB (${after.total >= before.total ? '+' : ''}${kb(after.total - before.total)} KB)\n`);
  console.log('| constructor / kind | count before | count after | KB before | KB after | growth KB |');
  console.log('|---|--:|--:|--:|--:|--:|');
  const names = new Set([...before.byName.keys(), ...after.byName.keys()]);
  const rows = [...names].map((name) => {
    const b = before.byName.get(name) ?? { size: 0, count: 0 };
    const a = after.byName.get(name) ?? { size: 0, count: 0 };
    return { name, b, a, growth: a.size - b.size };
  });
  for (const row of rows.sort((x, y) => y.growth - x.growth).slice(0, Number(rowsArg ?? 25))) {
    console.log(`| ${row.name.replace(/\|/g, '\\|')} | ${row.b.count} | ${row.a.count} | ${kb(row.b.size)} | ${kb(row.a.size)} | ${kb(row.growth)} |`);
  }
}

main();
