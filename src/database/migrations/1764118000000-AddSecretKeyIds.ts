import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed, varchar } from './schema-helpers.js';

/**
 * The fingerprint of the secret that keyed each application-password and recovery-code hash
 * (CryptoService.keyId), so `rotate-secret` can list those still keyed by CHECKOUT_SECRET_PREVIOUS
 * before it is removed. Nullable, no default: rows from before are filled by the first boot that
 * runs without a rotation (their hashes can only be under the secret in use then), and the
 * previous release's INSERT names its own columns during a rolling deploy.
 */
export class AddSecretKeyIds1764118000000 implements MigrationInterface {
  name = 'AddSecretKeyIds1764118000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['application_passwords', 'checkout_recovery_codes']) {
      await queryRunner.addColumn(prefixed(queryRunner, table), new TableColumn(varchar('secret_key_id', 16, true)));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['application_passwords', 'checkout_recovery_codes']) {
      await queryRunner.dropColumn(prefixed(queryRunner, table), 'secret_key_id');
    }
  }
}
