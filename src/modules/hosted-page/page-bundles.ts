import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** A script of the build, held in memory with its ETag. */
export interface BundleFile {
  readonly source: string;
  readonly etag: string;
}

/** dist/pay/manifest.json, written by scripts/build-hosted-page.mjs. */
interface BundleManifest {
  page: string;
  /** The payer's manage page's card script (src/modules/payer-manage/page/manage-card.ts) */
  manage?: string;
  embed: string;
  drivers: Record<string, string>;
}

/** Where the page's bundles are served: `/pay/assets/<file>` (the file names carry their content hash). */
export const PAGE_BUNDLE_BASE = '/pay/assets/';

const BUNDLE_FILE = /^[A-Za-z0-9_.-]+\.js$/;

function bundleFile(source: string): BundleFile {
  return { source, etag: `"${createHash('sha256').update(source).digest('base64url').slice(0, 27)}"` };
}

/**
 * The hosted page's browser bundles (`npm run build` writes them to `dist/pay/`: the page script,
 * embed.js and every slice's driver; scripts/build-hosted-page.mjs), read into memory at start.
 * Only files the manifest lists are ever sent, so no request path reaches the file system.
 * Not built: the service still runs, and the page says it is unavailable.
 */
export class PageBundles {
  private constructor(
    /** The page script's address, or null when the bundles were not built */
    readonly pageScript: string | null,
    readonly embed: BundleFile | null,
    /** The manage page's card script's address (`/pay/manage/{token}/subscriptions/{id}/card`), or null when not built */
    readonly manageScript: string | null,
    private readonly drivers: ReadonlyMap<string, string>,
    private readonly files: ReadonlyMap<string, BundleFile>,
  ) {}

  static load(directory: string, warn: (message: string) => void = (message) => new Logger('HostedPage').warn(message)): PageBundles {
    const manifestPath = join(directory, 'manifest.json');
    if (!existsSync(manifestPath)) {
      warn(`The hosted page's scripts are not built (no ${manifestPath}): run npm run build. /pay/{form_id} answers 503 until then.`);
      return new PageBundles(null, null, null, new Map(), new Map());
    }
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BundleManifest;
    const files = new Map<string, BundleFile>();
    const read = (name: string): BundleFile => {
      if (!BUNDLE_FILE.test(name)) throw new Error(`${manifestPath}: ${JSON.stringify(name)} is not a script file name`);
      const file = bundleFile(readFileSync(join(directory, name), 'utf8'));
      files.set(name, file);
      return file;
    };
    read(manifest.page);
    const embed = read(manifest.embed);
    // embed.js keeps its address (merchants' pages name it): it is served at /pay/embed.js only.
    files.delete(manifest.embed);
    const drivers = new Map<string, string>();
    for (const [name, file] of Object.entries(manifest.drivers)) {
      read(file);
      drivers.set(name, PAGE_BUNDLE_BASE + file);
    }
    if (manifest.manage) read(manifest.manage);
    return new PageBundles(PAGE_BUNDLE_BASE + manifest.page, embed, manifest.manage ? PAGE_BUNDLE_BASE + manifest.manage : null, drivers, files);
  }

  /** The address of the driver bundle named `name`, or null when no slice's build brought it. */
  driver(name: string): string | null {
    return this.drivers.get(name) ?? null;
  }

  /** A bundle by its (hashed) file name. */
  file(name: string): BundleFile | undefined {
    return this.files.get(name);
  }
}

/** Where `npm run build` puts the bundles: `dist/pay/` of the project (found from this file, in `src/` or `dist/src/`). */
export function pageBundleDirectory(from: string = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return resolve('dist', 'pay');
    dir = parent;
  }
  return join(dir, 'dist', 'pay');
}
