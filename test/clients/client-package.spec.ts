import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * clients/typescript as a package: it compiles under --strict without skipLibCheck (its own
 * tsconfig.strict.json, `npm run client:check`), and the tarball `npm pack` makes installs in a new
 * project with no registry (its dependency, openapi-fetch, is packed from the copy `npm ci` put in
 * node_modules) and that a strict compile and a run use as an integrator would.
 */
const ROOT = join(__dirname, '..', '..');
const CLIENT_DIR = join(ROOT, 'clients', 'typescript');
const TSC = require.resolve('typescript/bin/tsc');

/** The package's runtime dependencies and theirs, as installed in node_modules (their folders). */
function installedDependencies(manifest: string, seen = new Set<string>()): string[] {
  const { dependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(dependencies)) {
    const folder = join(ROOT, 'node_modules', name);
    if (seen.has(folder)) continue;
    seen.add(folder);
    installedDependencies(join(folder, 'package.json'), seen);
  }
  return [...seen];
}

function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** A new project's code: every line here must type-check strictly against the installed package and run. */
const CONSUMER = `import { createCheckoutClient, embedSnippet, type CheckoutError, type components, type JsonValue } from 'checkout-api-client';

type IsAny<T> = 0 extends 1 & T ? true : false;
type LogContext = components['schemas']['PaymentLogEntryDto']['context'];
// A payment log's context is JSON, not \`any\` (what TS2502 on the recursive schema made it).
const contextIsNotAny: IsAny<LogContext> = false;
const context: LogContext = { source: 'webhook:gateway_a', changed: ['status', { from: 'pending', to: 1.5 }], flag: true, none: null };
// @ts-expect-error a function is no JSON value
const notJson: JsonValue = () => 1;

const requests: Array<{ url: string; authorization: string | null }> = [];
const api = createCheckoutClient({
  baseUrl: 'https://shop.example/wp-json/checkout/v1/',
  credentials: { login: 'admin', applicationPassword: 'abcd efgh ijkl mnop qrst uvwx' },
  fetch: async (request: Request) => {
    requests.push({ url: request.url, authorization: request.headers.get('authorization') });
    const body: CheckoutError = { code: 'checkout_not_found', message: 'Payment not found.', data: { status: 404 } };
    return new Response(JSON.stringify(body), { status: 404, headers: { 'content-type': 'application/json' } });
  },
});
const { data, error } = await api.GET('/administration/payments/{id}', { params: { path: { id: 7 } } });
const code: string | undefined = error?.code;
console.log(JSON.stringify({ contextIsNotAny, context, notJson: typeof notJson, data: data ?? null, code, requests, snippet: embedSnippet({ origin: 'https://pay.example.com', formId: 3 }) }));
`;

describe('the TypeScript client as a package (clients/typescript)', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'checkout-client-package-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('compiles under --strict without skipLibCheck (tsconfig.strict.json)', () => {
    run(process.execPath, [TSC, '-p', join(CLIENT_DIR, 'tsconfig.strict.json')], ROOT);
  }, 120_000);

  it('packs into a tarball that a new project installs offline, compiles strictly and runs', () => {
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], CLIENT_DIR).stdout.replace(/^[^[]*/, '')) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    // Built JavaScript and declarations, the document; no sources, generator or tsconfig.
    expect(packed[0].files.map((file) => file.path).sort()).toEqual(
      ['dist/embed-snippet.d.ts', 'dist/embed-snippet.js', 'dist/index.d.ts', 'dist/index.js', 'dist/schema.d.ts', 'openapi.json', 'package.json'].sort(),
    );

    const project = join(work, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'nodenext', moduleResolution: 'nodenext', types: [], strict: true, skipLibCheck: false, outDir: 'out' },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    const dependencies = JSON.parse(
      run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work, ...installedDependencies(join(CLIENT_DIR, 'package.json'))], ROOT).stdout.replace(/^[^[]*/, ''),
    ) as Array<{ name: string; filename: string }>;
    expect(dependencies.map((dependency) => dependency.name)).toContain('openapi-fetch');
    const tarballs = [packed[0].filename, ...dependencies.map((dependency) => dependency.filename)].map((file) => join(work, file));
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], project);

    run(process.execPath, [TSC, '-p', join(project, 'tsconfig.json')], project);
    const output = JSON.parse(run(process.execPath, [join(project, 'out', 'consumer.js')], project).stdout);
    expect(output).toEqual({
      contextIsNotAny: false,
      context: { source: 'webhook:gateway_a', changed: ['status', { from: 'pending', to: 1.5 }], flag: true, none: null },
      notJson: 'function',
      data: null,
      code: 'checkout_not_found',
      requests: [{ url: 'https://shop.example/wp-json/checkout/v1/administration/payments/7', authorization: `Basic ${Buffer.from('admin:abcd efgh ijkl mnop qrst uvwx').toString('base64')}` }],
      snippet: '<script src="https://pay.example.com/pay/embed.js" data-form-id="3" async></script>',
    });
  }, 180_000);
});
