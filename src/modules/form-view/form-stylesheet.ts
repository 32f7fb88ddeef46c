import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function strongEtag(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/** The form's stylesheet (assets/form.css, copied beside the build by nest-cli), read once at start. */
export class FormStylesheet {
  readonly source = readFileSync(join(__dirname, 'assets', 'form.css'), 'utf8');
  readonly etag = strongEtag(this.source);
}

/**
 * The stylesheet of one accent colour (`2563eb.css`): it only sets `--accent`, which form.css
 * uses. A file name that is not six hex digits and `.css` gets null (the route answers 404).
 */
export function accentStylesheet(fileName: string): { source: string; etag: string } | null {
  const match = /^([0-9a-f]{6})\.css$/.exec(fileName);
  if (!match) return null;
  const source = `:root{--accent:#${match[1]}}\n`;
  return { source, etag: strongEtag(source) };
}
