import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The admin console's files at /admin/ (src/modules/admin-console): a built console stands in
 * (ADMIN_CONSOLE_DIR), so these tests need no Vite build.
 */
describe('admin console at /admin/', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'checkout-console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html><head><meta name="checkout-rest-base" content="%CHECKOUT_REST_BASE%">' +
        '<script type="module" src="/admin/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log("console");');
    writeFileSync(join(dir, 'assets', 'index-AbC123.css'), 'body{}');
    writeFileSync(join(dir, 'secret.txt.bak'), 'not served');
    t = await startTestApp({ ADMIN_CONSOLE_DIR: dir, REST_ROOT: 'api' });
  });

  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page with the REST base written in, revalidated on every load, under a strict CSP that forbids framing', async () => {
    const res = await request(t.http).get('/admin/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<meta name="checkout-rest-base" content="/api/checkout/v1">');
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['/admin', '/admin/payments', '/admin/forms/12/builder', '/admin/payments/7?status=completed'])('answers the client-side route %s with the page', async (path) => {
    const res = await request(t.http).get(path).expect(200);
    expect(res.text).toContain('<div id="root">');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('serves a hashed asset with its type, cached immutably', async () => {
    const js = await request(t.http).get('/admin/assets/index-AbC123.js').expect(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.text).toBe('console.log("console");');
    const css = await request(t.http).get('/admin/assets/index-AbC123.css').expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('sends an asset gzipped to a browser that accepts it, and answers a revalidation with 304', async () => {
    const gzipped = await request(t.http).get('/admin/assets/index-AbC123.js').set('Accept-Encoding', 'gzip, deflate, br').expect(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('Accept-Encoding');
    expect(gzipped.text).toBe('console.log("console");');
    const plain = await request(t.http).get('/admin/assets/index-AbC123.js').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const refused = await request(t.http).get('/admin/assets/index-AbC123.js').set('Accept-Encoding', 'gzip;q=0, identity').expect(200);
    expect(refused.headers['content-encoding']).toBeUndefined();
    const etag = plain.headers.etag;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await request(t.http).get('/admin/assets/index-AbC123.js').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
  });

  it.each(['/admin/assets/missing-1234.js', '/admin/assets/..%2Fsecret.txt.bak', '/admin/assets/%2e%2e%2findex.html', '/admin/assets/'])(
    'answers 404 for %s, never the page or a file outside assets/',
    async (path) => {
      const res = await request(t.http).get(path);
      if (path === '/admin/assets/') {
        // The directory itself is a client-side path like any other: the page, not a listing.
        expect(res.text).not.toContain('index-AbC123.js"></script><script');
        return;
      }
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('not served');
      expect(res.text).not.toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it('is not part of the REST namespace nor of the OpenAPI document', async () => {
    await request(t.http).get('/api/checkout/v1/admin/').expect(404);
    const doc = await request(t.http).get('/docs-json').expect(200);
    expect(Object.keys(doc.body.paths).filter((path) => path === '/admin' || path.startsWith('/admin/'))).toEqual([]);
  });

  it('says so when the console was not built, without failing the service', async () => {
    const other = await startTestApp({ ADMIN_CONSOLE_DIR: join(dir, 'nowhere') });
    try {
      const res = await request(other.http).get('/admin/').expect(503);
      expect(res.text).toContain('npm run build');
      await request(other.http).get('/healthz').expect(200);
    } finally {
      await other.close();
    }
  });
});
