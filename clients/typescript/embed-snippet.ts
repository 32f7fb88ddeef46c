/**
 * The snippet that puts a published form inside a merchant's own page (docs/hosted-page.md,
 * "Embedding a form"), for an admin UI to show per form (the admin console's form screens) and
 * for anyone building one by hand:
 *
 *   embedSnippet({ origin: 'https://pay.example.com', formId: 12 })
 *   // <script src="https://pay.example.com/pay/embed.js" data-form-id="12" async></script>
 *
 * The script frames `/pay/12?embed=1` and sizes the frame to the form. It works only on a site
 * whose origin the service lists in `EMBED_ORIGINS`: the page refuses every other frame.
 * `embedIframeSnippet` is the same without script (a fixed height, for sites that allow no
 * third-party script): `allow="payment"` lets device wallets run in the frame.
 *
 * No dependency, no DOM: a string builder that runs in the console, on a server or in a test.
 */

/** Where the service serves the embed script. */
export const EMBED_SCRIPT_PATH = '/pay/embed.js';

export interface EmbedSnippetOptions {
  /** The service's public origin, as payers reach it (`PUBLIC_BASE_URL`'s origin): `https://pay.example.com` */
  origin: string;
  /** A published form's id */
  formId: number;
}

/** The embed script tag for a form: the frame it inserts follows the form's height. */
export function embedSnippet(options: EmbedSnippetOptions): string {
  const { origin, formId } = checked(options);
  return `<script src="${origin}${EMBED_SCRIPT_PATH}" data-form-id="${formId}" async></script>`;
}

/** A plain iframe for a form, for pages that load no third-party script (no resizing: give it room). */
export function embedIframeSnippet(options: EmbedSnippetOptions & { height?: number }): string {
  const { origin, formId } = checked(options);
  const height = options.height ?? 720;
  if (!Number.isInteger(height) || height < 200 || height > 5000) throw new RangeError('height must be a whole number of pixels from 200 to 5000');
  return `<iframe src="${origin}/pay/${formId}?embed=1" title="Payment form" allow="payment" width="100%" height="${height}" style="border:0"></iframe>`;
}

/** The snippet goes into a page as HTML: only a bare origin and a positive integer id are ever put in it. */
function checked({ origin, formId }: EmbedSnippetOptions): EmbedSnippetOptions {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new RangeError('origin must be the service origin, like https://pay.example.com');
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
    throw new RangeError('origin must be the service origin (scheme, host, port; no path), like https://pay.example.com');
  }
  if (!Number.isSafeInteger(formId) || formId < 1) throw new RangeError('formId must be a form id (a positive integer)');
  return { origin: url.origin, formId };
}
