/**
 * `node dist/bench/profiling/require-cost.js`: what loading each of the service's heavy
 * dependencies costs on its own, in a fresh Node process each (median of 3): require time, RSS
 * and V8 heap used above an empty process. Shared dependencies are counted in every line, so the
 * lines do not add up; they show which imports are worth deferring for idle RSS and start time.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

const SETS: Array<[string, string[]]> = [
  ['(empty process)', []],
  ['reflect-metadata + rxjs', ['reflect-metadata', 'rxjs']],
  ['@nestjs/core + common + platform-express', ['reflect-metadata', '@nestjs/core', '@nestjs/common', '@nestjs/platform-express']],
  ['typeorm', ['reflect-metadata', 'typeorm']],
  ['better-sqlite3', ['better-sqlite3']],
  ['mysql2', ['mysql2']],
  ['stripe', ['stripe']],
  ['nodemailer', ['nodemailer']],
  ['ioredis', ['ioredis']],
  ['@nest-lab/throttler-storage-redis', ['reflect-metadata', '@nest-lab/throttler-storage-redis']],
  ['@nestjs/swagger', ['reflect-metadata', '@nestjs/swagger']],
  ['class-validator', ['class-validator']],
  ['class-transformer', ['class-transformer']],
  ['pino + pino-http + nestjs-pino', ['pino', 'pino-http', 'nestjs-pino']],
  ['@nestjs/throttler', ['reflect-metadata', '@nestjs/throttler']],
];

const PROBE = `
const t0 = process.hrtime.bigint();
for (const name of JSON.parse(process.argv[1])) require(name);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
global.gc();
setTimeout(() => {
  const m = process.memoryUsage();
  process.stdout.write(JSON.stringify({ ms, rss: m.rss, heapUsed: m.heapUsed }));
}, 300);
`;

interface Sample {
  ms: number;
  rss: number;
  heapUsed: number;
}

function measure(modules: string[]): Sample {
  const samples: Sample[] = [];
  for (let i = 0; i < 3; i += 1) {
    const run = spawnSync(process.execPath, ['--expose-gc', '-e', PROBE, JSON.stringify(modules)], { cwd: ROOT, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${modules.join(', ')}: ${run.stderr}`);
    samples.push(JSON.parse(run.stdout) as Sample);
  }
  const median = (key: keyof Sample) => samples.map((s) => s[key]).sort((a, b) => a - b)[1];
  return { ms: median('ms'), rss: median('rss'), heapUsed: median('heapUsed') };
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const empty = measure([]);
console.log('| modules | require ms | RSS above empty (MB) | V8 heap used above empty (MB) |');
console.log('|---|--:|--:|--:|');
for (const [label, modules] of SETS) {
  const sample = modules.length === 0 ? empty : measure(modules);
  console.log(`| ${label} | ${sample.ms.toFixed(0)} | ${mb(sample.rss - empty.rss)} | ${mb(sample.heapUsed - empty.heapUsed)} |`);
}
console.log(`\nEmpty Node process: RSS ${mb(empty.rss)} MB, V8 heap used ${mb(empty.heapUsed)} MB.`);
