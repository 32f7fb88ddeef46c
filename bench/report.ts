/**
 * Results of one bench run: the table, the targets (as ratios to the bare Nest route of the same
 * run) with pass/fail, and the section of docs/benchmarks.md that holds them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { LoadResult } from './load.js';

export type Db = 'sqlite' | 'mysql';

export interface Row {
  id: string;
  label: string;
  kind: 'baseline' | 'read' | 'write';
  load: LoadResult;
  /** service (or baseline) CPU time per answered request, microseconds */
  cpuUsPerRequest: number;
  /** cores the measured process used during the window */
  serverCores: number;
  /** cores busy on the machine outside the measured process and the load generator */
  otherCores: number;
}

export interface RunResult {
  rows: Row[];
  /** bare Nest req/s before and after the service scenarios; the ratio uses their mean */
  bareNest: { before: number; after: number };
  rssAfterMb: number;
  /** RSS once the service is idle again after the run (--idle-watch): what it keeps */
  rssIdleAfterMb?: number;
  /** the --variant instance's RSS after the same run */
  variantRssAfterMb?: number;
  loadSeconds: number;
}

export interface BenchReport {
  db: Db;
  tool: string;
  connections: number;
  durationS: number;
  warmupS: number;
  date: string;
  command: string;
  machine: string;
  loadAverage: { start: number[]; end: number[] };
  /** service: the restart that is measured; firstBoot: on the fresh data (migrations, first admin) */
  readyMs: { service: number; firstBoot: number; bareNode: number; bareNest: number };
  idleRssMb: {
    atReady: number;
    settled: number;
    /** after watching the idle process until V8's memory reducer ran and RSS held (--idle-watch) */
    watched?: { rssMb: number; afterReadyS: number; released: boolean; watchS: number };
    bareNode: number;
    bareNest: number;
    /** the --variant instance's, read the same way (restart, settle, watch) */
    variant?: number;
  };
  settleS: number;
  logs: string;
  runs: RunResult[];
  profiled: boolean;
  /** --env and --node-arg given to the service (what-if runs) */
  overrides: string[];
}

export interface Targets {
  baseline: string;
  scenarios: Record<string, { min_ratio?: number | Partial<Record<Db, number>>; min_logged_floor_ratio?: number; max_p99_ms?: number }>;
  memory: { max_idle_rss_mb: number; max_rss_after_load_mb: number; max_rss_growth_pct: number };
  startup: { max_ready_ms: Partial<Record<Db, number>> };
}

export interface Check {
  what: string;
  target: string;
  measured: string;
  pass: boolean;
}

export function baselineRps(run: RunResult): number {
  return (run.bareNest.before + run.bareNest.after) / 2;
}

export function ratio(run: RunResult, row: Row): number {
  return row.load.rps / baselineRps(run);
}

/** The row's req/s ÷ the logged floor's (bare Nest + the service's request log) in the same run; undefined without that baseline. */
export function loggedFloorRatio(run: RunResult, row: Row): number | undefined {
  const floor = rowOf(run, 'bare-nest-logged');
  return floor ? row.load.rps / floor.load.rps : undefined;
}

/** bare Nest CPU per request ÷ the row's: what the req/s ratio would be with a CPU-bound server. */
export function cpuRatio(run: RunResult, row: Row): number {
  const nest = run.rows.filter((r) => r.id === 'bare-nest');
  const nestCpu = nest.reduce((sum, r) => sum + r.cpuUsPerRequest, 0) / nest.length;
  return nestCpu / row.cpuUsPerRequest;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function rowOf(run: RunResult, id: string): Row | undefined {
  return run.rows.find((r) => r.id === id);
}

/** The service's scenarios (not the baselines, not the variant's rows). */
function scenarioIds(report: BenchReport): string[] {
  return report.runs[0].rows.filter((r) => r.kind !== 'baseline' && !r.id.endsWith('@variant')).map((r) => r.id);
}

/**
 * What the metrics cost each request: baseline 4 (request log + metrics) less baseline 3 (request
 * log), CPU µs per request, median of the runs; and that cost as a share of each scenario's CPU per
 * request (median of the runs). Undefined when the run has no metered baseline.
 */
export function metricsOverhead(report: BenchReport): { cpuUs: number; rpsRatio: number; shares: Array<{ id: string; label: string; cpuUs: number; share: number }> } | undefined {
  const pairs = report.runs.map((run) => ({ logged: rowOf(run, 'bare-nest-logged'), metered: rowOf(run, 'bare-nest-metered') }));
  if (pairs.some((p) => !p.logged || !p.metered)) return undefined;
  const cpuUs = median(pairs.map((p) => p.metered!.cpuUsPerRequest - p.logged!.cpuUsPerRequest));
  const rpsRatio = median(pairs.map((p) => p.metered!.load.rps / p.logged!.load.rps));
  const shares = scenarioIds(report).map((id) => {
    const rows = report.runs.map((run) => rowOf(run, id)).filter((r): r is Row => r !== undefined);
    const routeCpu = median(rows.map((r) => r.cpuUsPerRequest));
    return { id, label: rows[0].label, cpuUs: routeCpu, share: Math.max(cpuUs, 0) / routeCpu };
  });
  return { cpuUs, rpsRatio, shares };
}

/**
 * With a variant (--variant-build: the build before a change), each scenario's req/s ÷ the logged
 * floor of the same run for the service and the variant, medians of the runs, and the median of
 * the per-run service ÷ variant: the "within 5 % of before" of a restructure.
 */
export function variantComparison(report: BenchReport): Array<{ label: string; service: number; variant: number; perRun: number[]; change: number; cpuService: number; cpuVariant: number }> {
  return scenarioIds(report).flatMap((id) => {
    const runs = report.runs.map((run) => ({ floor: rowOf(run, 'bare-nest-logged'), s: rowOf(run, id), v: rowOf(run, `${id}@variant`) })).filter((r) => r.floor && r.s && r.v);
    if (runs.length === 0) return [];
    const perRun = runs.map((r) => r.s!.load.rps / r.v!.load.rps);
    return [
      {
        label: runs[0].s!.label,
        service: median(runs.map((r) => r.s!.load.rps / r.floor!.load.rps)),
        variant: median(runs.map((r) => r.v!.load.rps / r.floor!.load.rps)),
        perRun,
        change: median(perRun),
        cpuService: median(runs.map((r) => r.s!.cpuUsPerRequest)),
        cpuVariant: median(runs.map((r) => r.v!.cpuUsPerRequest)),
      },
    ];
  });
}

const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '-');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '-');

/** Targets of the last run; memory growth compares consecutive runs. */
export function evaluate(report: BenchReport, targets: Targets): Check[] {
  const checks: Check[] = [];
  const last = report.runs[report.runs.length - 1];
  for (const row of last.rows) {
    if (row.kind === 'baseline') continue;
    const target = targets.scenarios[row.id];
    const minRatio = typeof target?.min_ratio === 'number' ? target.min_ratio : target?.min_ratio?.[report.db];
    if (minRatio !== undefined) {
      const value = ratio(last, row);
      checks.push({
        what: `${row.label}: req/s ÷ bare Nest`,
        target: `>= ${minRatio}`,
        measured: `${f2(value)} (CPU ratio ${f2(cpuRatio(last, row))})`,
        pass: value >= minRatio,
      });
    }
    const floorRatio = loggedFloorRatio(last, row);
    if (target?.min_logged_floor_ratio !== undefined && floorRatio !== undefined) {
      checks.push({
        what: `${row.label}: req/s ÷ the logged floor (issue 36)`,
        target: `>= ${target.min_logged_floor_ratio}`,
        measured: f2(floorRatio),
        pass: floorRatio >= target.min_logged_floor_ratio,
      });
    }
    if (target?.max_p99_ms !== undefined) {
      checks.push({ what: `${row.label}: p99`, target: `<= ${target.max_p99_ms} ms`, measured: `${f1(row.load.p99Ms)} ms`, pass: row.load.p99Ms <= target.max_p99_ms });
    }
    const failed = row.load.non2xx + row.load.errors;
    checks.push({ what: `${row.label}: non-2xx + errors`, target: '0', measured: String(failed), pass: failed === 0 });
  }
  const overhead = metricsOverhead(report);
  for (const share of overhead?.shares ?? []) {
    const target = targets.scenarios[share.id];
    if (target?.min_ratio === undefined) continue;
    checks.push({
      what: `${share.label}: metrics' share of its CPU per request`,
      target: '<= 3 %',
      measured: `${f1(share.share * 100)} % (${f0(overhead!.cpuUs)} of ${f0(share.cpuUs)} µs)`,
      pass: share.share <= 0.03,
    });
  }
  const m = targets.memory;
  const idle = idleRss(report);
  checks.push({ what: `idle RSS (${idle.when})`, target: `<= ${m.max_idle_rss_mb} MB`, measured: `${f0(idle.mb)} MB`, pass: idle.mb <= m.max_idle_rss_mb });
  checks.push({
    what: `RSS after the run (${f0(last.loadSeconds)} s of load${report.runs.length > 1 ? `, run ${report.runs.length}` : ''})`,
    target: `<= ${m.max_rss_after_load_mb} MB`,
    measured: `${f0(last.rssAfterMb)} MB`,
    pass: last.rssAfterMb <= m.max_rss_after_load_mb,
  });
  // Growth is judged on what the service keeps once idle after each run when the bench watched
  // it: RSS right after a run lands anywhere in V8's collection cycle.
  const kept = report.runs.every((run) => run.rssIdleAfterMb !== undefined);
  for (let i = 1; i < report.runs.length; i += 1) {
    const before = kept ? report.runs[i - 1].rssIdleAfterMb! : report.runs[i - 1].rssAfterMb;
    const after = kept ? report.runs[i].rssIdleAfterMb! : report.runs[i].rssAfterMb;
    const growth = ((after - before) / before) * 100;
    checks.push({
      what: `RSS growth, run ${i} -> run ${i + 1}${kept ? ' (once idle after each run)' : ''}`,
      target: `<= ${m.max_rss_growth_pct} %`,
      measured: `${f0(before)} -> ${f0(after)} MB (${growth >= 0 ? '+' : ''}${f1(growth)} %)`,
      pass: growth <= m.max_rss_growth_pct,
    });
  }
  const maxReady = targets.startup.max_ready_ms[report.db];
  if (maxReady !== undefined) {
    checks.push({ what: 'start to ready, restart (spawn -> /readyz 200)', target: `<= ${maxReady} ms`, measured: `${f0(report.readyMs.service)} ms`, pass: report.readyMs.service <= maxReady });
    checks.push({
      what: 'start to ready, first boot on fresh data (migrations)',
      target: `<= ${maxReady} ms`,
      measured: `${f0(report.readyMs.firstBoot)} ms`,
      pass: report.readyMs.firstBoot <= maxReady,
    });
  }
  return checks;
}

/** The idle RSS the target is judged on: the watched one when the bench watched, else after the settle. */
function idleRss(report: BenchReport): { mb: number; when: string } {
  const w = report.idleRssMb.watched;
  if (!w) return { mb: report.idleRssMb.settled, when: `${report.settleS} s after ready` };
  return { mb: w.rssMb, when: w.released ? `idle, held from ${f0(w.afterReadyS)} s after ready` : `idle, ${f0(report.settleS + w.watchS)} s after ready, no release seen` };
}

function runTable(report: BenchReport, run: RunResult): string[] {
  const lines = [
    '| scenario | req/s | ratio to bare Nest | × the logged floor | p50 ms | p99 ms | non-2xx | errors | CPU µs/req | CPU ratio | server cores | other load (cores) |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const row of run.rows) {
    lines.push(
      `| ${row.label} | ${f0(row.load.rps)} | ${f2(ratio(run, row))} | ${f2(loggedFloorRatio(run, row) ?? Number.NaN)} | ${f2(row.load.p50Ms)} | ${f2(row.load.p99Ms)} | ${row.load.non2xx} | ${row.load.errors} | ${f0(row.cpuUsPerRequest)} | ${f2(cpuRatio(run, row))} | ${f2(row.serverCores)} | ${f2(row.otherCores)} |`,
    );
  }
  return lines;
}

export function markdownSection(report: BenchReport, checks: Check[]): string {
  const out: string[] = [];
  out.push(`### ${report.db === 'sqlite' ? 'SQLite (embedded default)' : 'MariaDB'}${report.profiled ? ' (PROFILED: numbers include profiler overhead)' : ''}`);
  if (report.overrides.length > 0) out.push('', `**What-if run, not the service's defaults**: ${report.overrides.join(', ')}`);
  out.push('');
  out.push(`- Date: ${report.date}`);
  out.push(`- Command: \`${report.command}\``);
  out.push(`- Machine: ${report.machine}; load average ${report.loadAverage.start.map(f2).join(' ')} at start, ${report.loadAverage.end.map(f2).join(' ')} at the end`);
  out.push(`- Load: ${report.tool}, ${report.connections} connections, ${report.warmupS} s warm-up + ${report.durationS} s per scenario; service logs at \`info\` to ${report.logs}`);
  out.push(
    `- Start to ready (spawn -> first 200 of /readyz): service ${f0(report.readyMs.service)} ms on a restart, ${f0(report.readyMs.firstBoot)} ms on its first boot (fresh data: migrations, first admin); bare Node ${f0(report.readyMs.bareNode)} ms, bare Nest ${f0(report.readyMs.bareNest)} ms`,
  );
  out.push(
    `- Idle RSS: service ${f0(report.idleRssMb.atReady)} MB at ready, ${f0(report.idleRssMb.settled)} MB after ${report.settleS} s idle${watchedText(report)} (bare Node ${f0(report.idleRssMb.bareNode)} MB, bare Nest ${f0(report.idleRssMb.bareNest)} MB${report.idleRssMb.variant === undefined ? '' : `, variant ${f0(report.idleRssMb.variant)} MB read the same way`})`,
  );
  report.runs.forEach((run, i) => {
    out.push('');
    out.push(
      `Run ${i + 1} of ${report.runs.length}: bare Nest ${f0(run.bareNest.before)} req/s before and ${f0(run.bareNest.after)} after the service scenarios (ratios use the mean, ${f0(baselineRps(run))}); RSS after the run ${f0(run.rssAfterMb)} MB${run.variantRssAfterMb === undefined ? '' : ` (variant ${f0(run.variantRssAfterMb)} MB)`} (${f0(run.loadSeconds)} s of load on the service)${run.rssIdleAfterMb === undefined ? '' : `, ${f0(run.rssIdleAfterMb)} MB once idle again`}.`,
    );
    out.push('');
    out.push(...runTable(report, run));
  });
  const overhead = metricsOverhead(report);
  if (overhead) {
    out.push('');
    out.push(
      `Metrics (prom-client's collectors and the request histogram): ${f0(overhead.cpuUs)} µs of CPU per request (request log + metrics against request log alone, median of ${report.runs.length} run(s); req/s ratio ${f2(overhead.rpsRatio)}), as a share of each route's CPU per request: ${overhead.shares.map((s) => `${s.label} ${f1(s.share * 100)} %`).join(', ')}.`,
    );
  }
  const comparison = variantComparison(report);
  if (comparison.length > 0) {
    out.push('');
    out.push(`Against the variant (${report.runs.length} run(s); req/s ÷ the logged floor of the same run, medians):`);
    out.push('');
    out.push('| scenario | service ÷ floor | variant ÷ floor | service ÷ variant (median) | per run | CPU µs/req service / variant |');
    out.push('|---|--:|--:|--:|---|--:|');
    for (const c of comparison) {
      out.push(`| ${c.label} | ${f2(c.service)} | ${f2(c.variant)} | ${f2(c.change)} | ${c.perRun.map(f2).join(', ')} | ${f0(c.cpuService)} / ${f0(c.cpuVariant)} |`);
    }
  }
  out.push('');
  out.push('Targets (bench/targets.json):');
  out.push('');
  out.push('| target | wanted | measured | |');
  out.push('|---|---|---|---|');
  for (const check of checks) out.push(`| ${check.what} | ${check.target} | ${check.measured} | ${check.pass ? 'pass' : '**FAIL**'} |`);
  return out.join('\n');
}

function watchedText(report: BenchReport): string {
  const w = report.idleRssMb.watched;
  if (!w) return '';
  return w.released ? `, ${f0(w.rssMb)} MB once V8's memory reducer had run (held from ${f0(w.afterReadyS)} s after ready)` : `, ${f0(w.rssMb)} MB after ${f0(report.settleS + w.watchS)} s (no release seen)`;
}

export function printReport(report: BenchReport, checks: Check[]): void {
  console.log('');
  console.log(markdownSection(report, checks));
  console.log('');
}

const DOC_HEADER = `# Benchmarks

Written by \`npm run bench\` (see bench/README.md): each database's section below is replaced by the
latest run on that database. Absolute numbers depend on the machine and on what else runs on it;
read the ratios to the bare NestJS route measured in the same run, and the CPU time per request.
"CPU ratio" is bare Nest's CPU per request divided by the scenario's: what the req/s ratio would
be if the server had a core to itself (it is far less sensitive to the machine's load; targets
are still judged on req/s). "Other load" is how many cores the rest of the machine kept busy
during the window (other engineers' test suites on a shared machine): when it is well above 0,
req/s and latency are noise, and "server cores" shows how little CPU the service got.
`;

/** Replaces (or appends) the section of `db` in docs/benchmarks.md, leaving the rest as it is. */
export function writeDocs(path: string, report: BenchReport, checks: Check[]): void {
  const start = `<!-- bench:${report.db}:start -->`;
  const end = `<!-- bench:${report.db}:end -->`;
  const section = `${start}\n${markdownSection(report, checks)}\n${end}`;
  let doc = existsSync(path) ? readFileSync(path, 'utf8') : `${DOC_HEADER}\n## Latest results\n\n<!-- bench:sqlite:start -->\n<!-- bench:sqlite:end -->\n\n<!-- bench:mysql:start -->\n<!-- bench:mysql:end -->\n`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from >= 0 && to > from) doc = `${doc.slice(0, from)}${section}${doc.slice(to + end.length)}`;
  else doc = `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(path, doc);
}
