import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { OptionsService, SecretMismatchError } from '../../src/modules/settings/index.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const SECRET_A = 'secret-A-of-the-first-boot-0123456789-abcdef';
const SECRET_B = 'secret-B-someone-set-later-0123456789-uvwxyz';

async function bootFailure(env: Record<string, string | undefined>): Promise<Error> {
  try {
    const t = await startTestApp(env, { keepDatabase: true });
    await t.close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the app booted');
}

describe('master secret canary', () => {
  it('stops a restart with another CHECKOUT_SECRET, naming the variable and never a value; the right secret boots', async () => {
    const databaseUrl = sharedDatabaseUrl();
    const first = await startTestApp({ DATABASE_URL: databaseUrl, CHECKOUT_SECRET: SECRET_A });
    await first.app.get(OptionsService).setSecret('checkout_general_api_key', 'sk_test_canary_1234567890');
    await first.close();

    const error = await bootFailure({ DATABASE_URL: databaseUrl, CHECKOUT_SECRET: SECRET_B });
    expect(error).toBeInstanceOf(SecretMismatchError);
    expect(error.message).toContain('CHECKOUT_SECRET');
    expect(error.message).not.toContain(SECRET_A);
    expect(error.message).not.toContain(SECRET_B);
    expect(error.message).not.toContain('sk_test_canary');

    const again: TestApp = await startTestApp({ DATABASE_URL: databaseUrl, CHECKOUT_SECRET: SECRET_A }, { keepDatabase: true });
    try {
      expect(await again.app.get(OptionsService).getSecret('checkout_general_api_key')).toBe('sk_test_canary_1234567890');
      expect((await request(again.http).get(`${again.base}/settings`).set('Authorization', again.admin.auth)).status).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('stops a restart whose data/secret.key was lost, naming CHECKOUT_SECRET and the key file', async () => {
    const databaseUrl = sharedDatabaseUrl();
    const dataDir = mkdtempSync(join(tmpdir(), 'checkout-keyfile-'));
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, CHECKOUT_SECRET: undefined };
    const first = await startTestApp(env);
    await first.close();
    const keyFile = join(dataDir, 'secret.key');
    rmSync(keyFile);

    const error = await bootFailure(env);
    expect(error).toBeInstanceOf(SecretMismatchError);
    expect(error.message).toContain('CHECKOUT_SECRET');
    expect(error.message).toContain(keyFile);
  });

  it('checks a database from before the canary against a secret it already sealed', async () => {
    const databaseUrl = sharedDatabaseUrl();
    const first = await startTestApp({ DATABASE_URL: databaseUrl, CHECKOUT_SECRET: SECRET_A });
    const options = first.app.get(OptionsService);
    await options.setSecret('checkout_general_api_key', 'sk_test_before_the_canary');
    await options.delete('checkout_secret_canary');
    await first.close();

    expect(await bootFailure({ DATABASE_URL: databaseUrl, CHECKOUT_SECRET: SECRET_B })).toBeInstanceOf(SecretMismatchError);
    const upgraded = await startTestApp({ DATABASE_URL: databaseUrl, CHECKOUT_SECRET: SECRET_A }, { keepDatabase: true });
    await upgraded.close();
    expect(await bootFailure({ DATABASE_URL: databaseUrl, CHECKOUT_SECRET: SECRET_B })).toBeInstanceOf(SecretMismatchError);
  });
});
