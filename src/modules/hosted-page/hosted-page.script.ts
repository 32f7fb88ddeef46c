import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A static browser script of the page (assets/, copied beside the build by nest-cli), read once at start. */
class StaticScript {
  readonly source: string;
  readonly etag: string;

  constructor(file: string) {
    this.source = readFileSync(join(__dirname, 'assets', file), 'utf8');
    this.etag = `"${createHash('sha256').update(this.source).digest('base64url').slice(0, 27)}"`;
  }
}

/** The page's own script (assets/hosted-page.js). */
@Injectable()
export class HostedPageScript extends StaticScript {
  constructor() {
    super('hosted-page.js');
  }
}

/** The embed script a merchant's page loads (assets/embed.js): it frames `/pay/{id}?embed=1` and sizes the frame. */
@Injectable()
export class EmbedScript extends StaticScript {
  constructor() {
    super('embed.js');
  }
}
