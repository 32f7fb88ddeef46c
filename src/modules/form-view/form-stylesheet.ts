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

/** WCAG 2 relative luminance of a six-digit hex colour. */
function luminance(hex: string): number {
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The dark text used on light accents. */
const DARK_TEXT = '111827';

/**
 * The text colour on an accent background: white while it reads at WCAG AA's 4.5:1, else dark
 * text (a merchant's light or mid green, yellow or orange would leave white text unreadable).
 */
export function onAccent(hex: string): string {
  const accent = luminance(hex);
  return (1 + 0.05) / (accent + 0.05) >= 4.5 ? 'ffffff' : DARK_TEXT;
}

/**
 * The stylesheet of one accent colour (`2563eb.css`): it sets `--accent` and the text colour that
 * reads on it, `--on-accent`, which form.css uses. A file name that is not six hex digits and
 * `.css` gets null (the route answers 404).
 */
export function accentStylesheet(fileName: string): { source: string; etag: string } | null {
  const match = /^([0-9a-f]{6})\.css$/.exec(fileName);
  if (!match) return null;
  const source = `:root{--accent:#${match[1]};--on-accent:#${onAccent(match[1])}}\n`;
  return { source, etag: strongEtag(source) };
}
