/**
 * What grew between two heap snapshots of the same process (e.g. `run1-after` and `run2-after` of
 * `npm run bench -- --profile DIR --memory-only --runs 3`): live objects by constructor or kind,
 * sorted by the growth of their self size. Usage:
 *   node dist/bench/profiling/heap-diff.js BEFORE.heapsnapshot AFTER.heapsnapshot [rows]
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

type Tally = Map<string, { size: number; count: number }>;

function tally(file: string): { byName: Tally; total: number } {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byName: Tally = new Map();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const size = snap.nodes[i + sizeAt];
    total += size;
    let name = snap.strings[snap.nodes[i + nameAt]];
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = `(string) ${name.slice(0, 50).replace(/\s+/g, ' ')}`;
    else if (type === 'code') name = `(code) ${name.startsWith('(') ? name.replace(/ .*/, '') : 'compiled'}`;
    else if (type === 'closure') name = `(closure) ${name.slice(0, 40)}`;
    else if (type === 'array') name = `(array) ${name}`;
    else if (type === 'hidden' || type === 'object shape') name = `(${type}) ${name.slice(0, 40)}`;
    const entry = byName.get(name) ?? { size: 0, count: 0 };
    entry.size += size;
    entry.count += 1;
    byName.set(name, entry);
  }
  return { byName, total };
}

function main(): void {
  const [beforeFile, afterFile, rowsArg] = process.argv.slice(2);
  if (!beforeFile || !afterFile) throw new Error('usage: node dist/bench/profiling/heap-diff.js BEFORE.heapsnapshot AFTER.heapsnapshot [rows]');
  const before = tally(beforeFile);
  const after = tally(afterFile);
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
