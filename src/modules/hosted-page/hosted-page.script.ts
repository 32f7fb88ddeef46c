import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The page's browser script (assets/hosted-page.js, copied beside the build by nest-cli), read once at start. */
@Injectable()
export class HostedPageScript {
  readonly source = readFileSync(join(__dirname, 'assets', 'hosted-page.js'), 'utf8');
  readonly etag = `"${createHash('sha256').update(this.source).digest('base64url').slice(0, 27)}"`;
}
