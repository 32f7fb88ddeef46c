/*
 * The embed script of a merchant's page (served at /pay/embed.js):
 *
 *   <script src="https://pay.example.com/pay/embed.js" data-form-id="12" async></script>
 *
 * puts the published form 12 where the tag stands, in an iframe of /pay/12?embed=1 sized to the
 * form: the page inside posts its height, and this script believes only messages from the
 * service's own origin and from that very frame. The page allows being framed only by the
 * origins the operator lists in EMBED_ORIGINS (its `frame-ancestors`), so this script works on
 * those sites and shows the browser's refusal anywhere else. No cookie, no storage, nothing of
 * the merchant's page is read.
 */
function embedForm(script: HTMLScriptElement): void {
  const origin = new URL(script.src).origin;
  const formId = String(script.dataset.formId || '');
  if (!/^[1-9]\d{0,9}$/.test(formId)) {
    if (window.console) window.console.warn('Checkout embed: data-form-id must be a form id, like data-form-id="12".');
    return;
  }

  const frame = document.createElement('iframe');
  frame.src = origin + '/pay/' + formId + '?embed=1';
  frame.title = script.dataset.title || 'Payment form';
  // Device wallets use the Payment Request API, which a cross-origin frame may call only when allowed.
  frame.allow = 'payment';
  frame.loading = 'eager';
  frame.referrerPolicy = 'strict-origin';
  frame.className = 'checkout-embed';
  frame.dataset.formId = formId;
  frame.style.width = '100%';
  frame.style.border = '0';
  frame.style.display = 'block';
  frame.style.minHeight = '24rem';
  frame.style.colorScheme = 'normal';

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    const data = event.data as { type?: unknown; form_id?: unknown; height?: unknown } | null;
    if (!data || data.type !== 'checkout:height' || String(data.form_id) !== formId) return;
    const height = Number(data.height);
    if (!isFinite(height) || height <= 0) return;
    frame.style.height = Math.min(Math.ceil(height), 20000) + 'px';
    frame.style.minHeight = '0';
  });

  script.parentNode?.insertBefore(frame, script.nextSibling);
}

const embedScript = document.currentScript;
if (embedScript instanceof HTMLScriptElement && embedScript.src) embedForm(embedScript);
