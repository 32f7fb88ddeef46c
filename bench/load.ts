/**
 * The load generators: autocannon in this process (programmatic API) or wrk as a child process
 * (one thread, as in issue 13's "before" numbers). Both keep `connections` keep-alive connections
 * busy for `seconds` and report throughput, p50/p99 latency, non-2xx answers and socket errors.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { cpuSecondsOf } from './processes.js';
import { gatewayAWebhookLua, type WebhookEventSource } from './webhook-events.js';

export type Tool = 'autocannon' | 'wrk';

export interface RequestTemplate {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadPlan {
  port: number;
  request: RequestTemplate;
  /** Every request a new signed gateway-A event (autocannon: a request hook; wrk: a Lua generator). */
  webhookEvents?: WebhookEventSource;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** answers outside 2xx (wrk: status >= 400) */
  non2xx: number;
  /** connect/read/write errors and timeouts */
  errors: number;
  /** CPU seconds the load generator itself used (noise indicator on a shared machine) */
  generatorCpuSeconds: number;
}

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

export function runLoad(tool: Tool, plan: LoadPlan, seconds: number, connections: number, workDir: string): Promise<LoadResult> {
  return tool === 'wrk' ? runWrk(plan, seconds, connections, workDir) : runAutocannon(plan, seconds, connections);
}

async function runAutocannon(plan: LoadPlan, seconds: number, connections: number): Promise<LoadResult> {
  const { request, webhookEvents } = plan;
  const cpuBefore = process.cpuUsage();
  const latencies: number[] = [];
  let finish: (error: Error | null, result: autocannon.Result) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = (error, result) => (error ? reject(error) : resolve(result));
  });
  const options: autocannon.Options = {
    url: `http://127.0.0.1:${plan.port}`,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
        ...(webhookEvents
          ? {
              setupRequest: (req: autocannon.Request) => {
                const event = webhookEvents.next();
                return { ...req, body: event.body, headers: { ...request.headers, ...event.headers } };
              },
            }
          : {}),
      },
    ],
  };
  const instance = autocannon(options, (error, result) => finish(error, result));
  // autocannon's own histogram keeps whole milliseconds; record the exact times for p50/p99.
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await done;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const total = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  return {
    requests: total,
    seconds: result.duration,
    rps: total / result.duration,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    generatorCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** Lua long-bracket literal (safe for any body without `]==]`). */
function luaString(value: string): string {
  if (value.includes(']==]')) throw new Error('the request body cannot be embedded in a wrk script');
  return `[==[${value}]==]`;
}

const WRK_REPORT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCH_RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status, e.connect, e.read, e.write, e.timeout))
end
`;

function wrkScript(plan: LoadPlan): string {
  const { request } = plan;
  const lines = [`wrk.method = ${luaString(request.method)}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
  if (request.body !== undefined) lines.push(`wrk.body = ${luaString(request.body)}`);
  if (plan.webhookEvents) lines.push(gatewayAWebhookLua(plan.webhookEvents, request));
  lines.push(WRK_REPORT);
  return lines.join('\n');
}

async function runWrk(plan: LoadPlan, seconds: number, connections: number, workDir: string): Promise<LoadResult> {
  const script = join(workDir, `wrk-${process.pid}-${Date.now()}.lua`);
  writeFileSync(script, wrkScript(plan));
  const url = `http://127.0.0.1:${plan.port}${plan.request.path}`;
  // wrk takes whole seconds
  seconds = Math.max(1, Math.round(seconds));
  const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // wrk's CPU time, sampled while it runs (it is reaped before 'exit' fires)
  let generatorCpuSeconds = 0;
  const sampler = setInterval(() => {
    if (child.pid) generatorCpuSeconds = Math.max(generatorCpuSeconds, cpuSecondsOf(child.pid));
  }, 250);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  clearInterval(sampler);
  const line = /BENCH_RESULT (\{.*\})/.exec(stdout)?.[1];
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${stderr || stdout}`);
  const r = JSON.parse(line) as Record<string, number>;
  const secondsMeasured = r.duration_us / 1e6;
  return {
    requests: r.requests,
    seconds: secondsMeasured,
    rps: r.requests / secondsMeasured,
    p50Ms: r.p50_us / 1000,
    p99Ms: r.p99_us / 1000,
    non2xx: r.status,
    errors: r.connect + r.read + r.write + r.timeout,
    generatorCpuSeconds,
  };
}
