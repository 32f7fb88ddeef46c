import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

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

/** Types worth compressing (images and fonts already are). */
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.txt']);

/**
 * One file of the build, held in memory (the whole build is ~0.5 MB): sending a Buffer costs no
 * file stream, and the gzipped form is made once, at the first request that accepts it.
 */
export class ConsoleAsset {
  readonly etag: string;
  private gzipped: Buffer | null = null;

  constructor(
    readonly body: Buffer,
    readonly contentType: string,
    readonly compressible: boolean,
  ) {
    this.etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  }

  gzip(): Buffer {
    this.gzipped ??= gzipSync(this.body, { level: 9 });
    return this.gzipped;
  }
}

/**
 * The built console (`npm run build` writes it to `dist/console/`): its `index.html` with the REST
 * base written into it, and the files under `assets/`, read into memory at start-up. Only files
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
        const extension = extname(name);
        const contentType = CONTENT_TYPES[extension];
        if (contentType && statSync(path).isFile()) assets.set(name, new ConsoleAsset(readFileSync(path), contentType, COMPRESSIBLE.has(extension)));
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
