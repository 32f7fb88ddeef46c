import type { INestApplicationContext } from '@nestjs/common';
import { CryptoService } from './common/crypto/index.js';
import type { AppConfig } from './config/index.js';
import { backupDatabase, defaultBackupFile } from './database/index.js';
import { IdentityService, type StaleCredentials } from './modules/identity/index.js';
import { SecretRotationService } from './modules/operations/index.js';

export interface SecretsIo {
  out(line: string): void;
  err(line: string): void;
}

/**
 * `npm run cli -- rotate-secret [--list-stale]` (docs/operations.md, "Rotating CHECKOUT_SECRET"):
 * seals every stored secret again under the current CHECKOUT_SECRET in one transaction and says how
 * many it changed (never a value), then lists what still depends on CHECKOUT_SECRET_PREVIOUS.
 * `--list-stale` only lists. Exit 1 when a stored value opens under neither secret.
 */
export async function runRotateSecretCommand(app: INestApplicationContext, options: { listOnly: boolean }, io: SecretsIo): Promise<number> {
  const rotating = app.get(CryptoService).rotating;
  let code = 0;
  if (!options.listOnly) {
    const report = await app.get(SecretRotationService).reseal();
    io.out(`Re-encrypted ${report.resealed} stored value(s) under the current secret; ${report.current} already were.`);
    if (!rotating) io.out('CHECKOUT_SECRET_PREVIOUS is not set: no value could be under another secret.');
    for (const where of report.unreadable) io.err(`Opens under neither secret, left as it is: ${where}`);
    if (report.unreadable.length > 0) code = 1;
  }
  printStale(await app.get(IdentityService).staleCredentials(), rotating, io);
  return code;
}

function printStale(stale: StaleCredentials, rotating: boolean, io: SecretsIo): void {
  const count = stale.applicationPasswords.length + stale.recoveryCodeUsers.length;
  if (count === 0) {
    io.out(rotating ? 'Nothing is keyed by the previous secret any more: CHECKOUT_SECRET_PREVIOUS can be removed.' : 'No credential is keyed by another secret.');
    return;
  }
  io.out(
    rotating
      ? 'Still keyed by the previous secret (each stops working once CHECKOUT_SECRET_PREVIOUS is removed; an application password is re-keyed by its next successful use):'
      : 'Keyed by a secret that is no longer set (these no longer work):',
  );
  for (const password of stale.applicationPasswords) {
    io.out(`  application password ${password.uuid} "${password.name}" of ${password.login}, last used ${password.last_used_at ?? 'never'}`);
  }
  for (const login of stale.recoveryCodeUsers) io.out(`  the unused recovery codes of ${login} (they make new ones by turning two-factor sign-in off and on)`);
}

/** `npm run cli -- backup [--out FILE]`: the database only; the secret is backed up separately. */
export async function runBackupCommand(config: AppConfig, out: string | undefined, io: SecretsIo): Promise<number> {
  const { file } = await backupDatabase(config, out ?? defaultBackupFile(config));
  io.out(`Backed up the database to ${file} (mode 0600).`);
  io.out(
    config.checkoutSecret
      ? 'It holds no CHECKOUT_SECRET: keep the secret in your secret store, apart from the backup; without it the backup cannot be used.'
      : `It holds no key: back up ${config.dataDir}/secret.key separately (not next to the backup); without it the backup cannot be used.`,
  );
  return 0;
}
