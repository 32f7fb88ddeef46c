import { chmodSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { MailService } from '../../src/modules/mail/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const mode = (path: string) => statSync(path).mode & 0o777;

/** The embedded-SQLite setup on a fresh data directory: what the service creates may be read by its own user only. */
describe('data files are private to the service user', () => {
  let previousUmask: number;
  let dataDir: string;
  let t: TestApp;

  beforeAll(async () => {
    // The usual umask: without explicit modes, files would come out 0644 and directories 0755.
    previousUmask = process.umask(0o022);
    dataDir = join(mkdtempSync(join(tmpdir(), 'checkout-modes-')), 'data');
    t = await startTestApp({ DATA_DIR: dataDir, DATABASE_URL: '', CHECKOUT_SECRET: undefined });
  });
  afterAll(async () => {
    await t?.close();
    process.umask(previousUmask);
  });

  it('creates DATA_DIR 0700, the key file and the SQLite database with its companions 0600', async () => {
    expect((await request(t.http).post(`${t.base}/tags`).set('Authorization', t.admin.auth).send({ tag: 'written' })).status).toBe(201);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'secret.key'))).toBe(0o600);
    const database = join(dataDir, 'checkout.sqlite');
    expect(mode(database)).toBe(0o600);
    const companions = ['-wal', '-shm', '-journal'].map((suffix) => `${database}${suffix}`).filter((file) => existsSync(file));
    expect(companions.length).toBeGreaterThan(0); // WAL mode: -wal and -shm exist while the database is open
    for (const file of companions) expect({ file, mode: mode(file) }).toEqual({ file, mode: 0o600 });
  });

  it('writes the mail outbox as a 0700 directory of 0600 files', async () => {
    const [sent] = await t.app.get(MailService).send([
      { kind: 'admin', from: { name: 'Shop', address: 'checkout@checkout.test' }, to: 'owner@example.test', subject: 'Payer data', text: 'Jane Doe', html: '<p>Jane Doe</p>' },
    ]);
    const outbox = join(dataDir, 'outbox');
    expect(mode(outbox)).toBe(0o700);
    expect(readdirSync(outbox)).toContain(sent.outbox_file);
    expect(mode(join(outbox, sent.outbox_file!))).toBe(0o600);
  });
});

describe('a database file created readable by others before this rule', () => {
  it('is narrowed to 0600 at boot', async () => {
    const previousUmask = process.umask(0o022);
    const dataDir = mkdtempSync(join(tmpdir(), 'checkout-modes-old-'));
    const database = join(dataDir, 'old.sqlite');
    writeFileSync(database, '');
    chmodSync(database, 0o644);
    const t = await startTestApp({ DATABASE_URL: `sqlite:${database}` });
    try {
      expect(mode(database)).toBe(0o600);
    } finally {
      await t.close();
      process.umask(previousUmask);
    }
  });
});

describe('Swagger UI', () => {
  it('does not keep the authorisation in the browser’s localStorage', async () => {
    const t = await startTestApp();
    try {
      const init = await request(t.http).get('/docs/swagger-ui-init.js');
      expect(init.status).toBe(200);
      expect(init.text).toMatch(/"persistAuthorization":\s*false/);
      expect(init.text).not.toMatch(/localStorage/);
    } finally {
      await t.close();
    }
  });
});
