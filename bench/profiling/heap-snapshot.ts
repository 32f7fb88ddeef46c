/** Reading a V8 heap snapshot (`.heapsnapshot`, JSON): live objects tallied by kind, for analyze.ts and heap-diff.ts. */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

export type Tally = Map<string, { size: number; count: number }>;

export interface HeapTally {
  /** self sizes in bytes */
  total: number;
  byType: Map<string, number>;
  /** by constructor, or by kind for strings, code, closures, arrays and V8's internal objects */
  byName: Tally;
}

/**
 * `detailed`: strings by their first 50 characters and closures by name (what grew, in heap-diff);
 * otherwise all strings and all closures are one row each (where the memory is, in analyze).
 */
export function tallyHeap(file: string, detailed = false): HeapTally {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const tally: HeapTally = { total: 0, byType: new Map(), byName: new Map() };
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const size = snap.nodes[i + sizeAt];
    tally.total += size;
    tally.byType.set(type, (tally.byType.get(type) ?? 0) + size);
    const name = kindOf(type, snap.strings[snap.nodes[i + nameAt]], detailed);
    const entry = tally.byName.get(name) ?? { size: 0, count: 0 };
    entry.size += size;
    entry.count += 1;
    tally.byName.set(name, entry);
  }
  return tally;
}

function kindOf(type: string, name: string, detailed: boolean): string {
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return detailed ? `(string) ${name.slice(0, 50).replace(/\s+/g, ' ')}` : '(strings)';
  if (type === 'code') return `(code) ${name.startsWith('(') ? name.replace(/ .*/, '') : 'compiled'}`;
  if (type === 'closure') return detailed ? `(closure) ${name.slice(0, 40)}` : '(closures)';
  if (type === 'array') return `(array) ${name}`;
  if (type === 'hidden' || type === 'object shape') return `(${type}) ${name.slice(0, 40)}`;
  return name;
}
