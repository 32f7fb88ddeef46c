import { EMBED_SCRIPT_PATH as SERVED_PATH } from '../../src/modules/hosted-page/index.js';
import { EMBED_SCRIPT_PATH, embedIframeSnippet, embedSnippet } from '../../clients/typescript/index.js';

describe('embed snippets of the committed client', () => {
  it('builds the script tag for a form, pointing at the path the service serves', () => {
    expect(EMBED_SCRIPT_PATH).toBe(SERVED_PATH);
    expect(embedSnippet({ origin: 'https://pay.example.com', formId: 12 })).toBe('<script src="https://pay.example.com/pay/embed.js" data-form-id="12" async></script>');
    expect(embedSnippet({ origin: 'http://127.0.0.1:3000/', formId: 1 })).toBe('<script src="http://127.0.0.1:3000/pay/embed.js" data-form-id="1" async></script>');
  });

  it('builds a plain iframe with device wallets allowed and a fixed height', () => {
    expect(embedIframeSnippet({ origin: 'https://pay.example.com', formId: 12 })).toBe(
      '<iframe src="https://pay.example.com/pay/12?embed=1" title="Payment form" allow="payment" width="100%" height="720" style="border:0"></iframe>',
    );
    expect(embedIframeSnippet({ origin: 'https://pay.example.com', formId: 12, height: 900 })).toContain('height="900"');
  });

  it('puts nothing but a bare origin and a form id into the HTML', () => {
    for (const origin of ['pay.example.com', 'https://pay.example.com/shop', 'javascript:alert(1)', 'https://pay.example.com"><script>', 'https://pay.example.com?x=1']) {
      expect(() => embedSnippet({ origin, formId: 1 })).toThrow(RangeError);
    }
    for (const formId of [0, -1, 1.5, Number.NaN]) expect(() => embedSnippet({ origin: 'https://pay.example.com', formId })).toThrow(RangeError);
    expect(() => embedIframeSnippet({ origin: 'https://pay.example.com', formId: 1, height: 10 })).toThrow(RangeError);
  });
});
