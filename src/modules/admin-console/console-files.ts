import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Content types of the files a Vite build of the console emits. */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** One file of the build the service may send: its absolute path and content type. */
export interface ConsoleAsset {
  path: string;
  contentType: string;
}

/**
 * The built console (`npm run build` writes it to `dist/console/`): its `index.html`, kept in
 * memory with the REST base written into it, and the list of files under `assets/`. Only files
 * listed at start-up are ever sent, so no request path reaches the file system (no traversal,
 * no directory listing); every asset name carries a content hash, so they are cached immutably.
 */
export class ConsoleFiles {
  private constructor(
    readonly indexHtml: string | null,
    private readonly assets: ReadonlyMap<string, ConsoleAsset>,
  ) {}

  /** Null `indexHtml`: the console was not built (the service still runs; /admin/ says so). */
  static load(directory: string, restBase: string): ConsoleFiles {
    const index = join(directory, 'index.html');
    if (!existsSync(index)) return new ConsoleFiles(null, new Map());
    const html = readFileSync(index, 'utf8').replaceAll('%CHECKOUT_REST_BASE%', escapeAttribute(restBase));
    const assets = new Map<string, ConsoleAsset>();
    const assetDir = join(directory, 'assets');
    if (existsSync(assetDir)) {
      for (const name of readdirSync(assetDir)) {
        const path = join(assetDir, name);
        const contentType = CONTENT_TYPES[extname(name)];
        if (contentType && statSync(path).isFile()) assets.set(name, { path, contentType });
      }
    }
    return new ConsoleFiles(html, assets);
  }

  asset(name: string): ConsoleAsset | undefined {
    return this.assets.get(name);
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
