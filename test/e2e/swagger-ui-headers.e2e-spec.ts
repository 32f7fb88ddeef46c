import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Swagger UI's answers (issue 34 item 4): a CSP that lets the page run (the browser spec runs it
 * under this very policy) but no eval and no framing, and HSTS when the service is reached over
 * HTTPS, decided as for the console's `Secure` cookie.
 */
describe('Swagger UI security headers', () => {
  const PATHS = ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs/swagger-ui-bundle.js', '/docs-json'];

  describe('over plain HTTP (PUBLIC_BASE_URL http://, no trusted proxy)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it.each(PATHS)('%s: a CSP without eval or inline script, never framed, no HSTS', async (path) => {
      const res = await request(t.http).get(path);
      expect(res.status).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      const directives = new Map(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      expect(directives.get('default-src')).toEqual(["'none'"]);
      expect(directives.get('script-src')).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives.get('connect-src')).toEqual(["'self'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('the page loads no inline script, and the init script asks no outside validator', async () => {
      const page = await request(t.http).get('/docs');
      expect(page.text).not.toMatch(/<script>/);
      const init = await request(t.http).get('/docs/swagger-ui-init.js');
      expect(init.text).toMatch(/"validatorUrl":\s*null/);
    });

    it('an API answer gets no Swagger UI policy', async () => {
      const res = await request(t.http).get('/healthz');
      expect(res.headers['content-security-policy']).toBeUndefined();
    });
  });

  describe('behind a trusted TLS proxy (TRUST_PROXY=true)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ TRUST_PROXY: 'true' });
    });
    afterAll(() => t.close());

    it('sends HSTS when the proxy says https, not when it says http', async () => {
      const secure = await request(t.http).get('/docs').set('X-Forwarded-Proto', 'https');
      expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
      const plain = await request(t.http).get('/docs').set('X-Forwarded-Proto', 'http');
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    });
  });

  describe('with an https PUBLIC_BASE_URL', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ PUBLIC_BASE_URL: 'https://checkout.example' });
    });
    afterAll(() => t.close());

    it.each(PATHS)('%s: sends HSTS', async (path) => {
      const res = await request(t.http).get(path);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    });
  });
});
