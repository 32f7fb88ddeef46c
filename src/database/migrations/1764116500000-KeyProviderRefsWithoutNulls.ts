import type { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql, prefixed } from './schema-helpers.js';

/**
 * One payment per provider payment (gateway, provider_payment_ref) without a unique key that holds
 * NULLs: every new payment is written with no provider ref yet, and MariaDB Galera's certification
 * counts the NULL of a unique key as a key value, so creations on different nodes aborted each
 * other (docs/scaling.md "MariaDB Galera"). The unique key moves to a stored generated column that
 * is never NULL: `ref:<provider ref>` once the payment has one, else `none:<secret nonce>` (32
 * random bytes, distinct per payment, and never of the form `ref:…`). The uniqueness is the same
 * as before: two payments of a gateway cannot hold one provider ref. Lookups by ref keep an index
 * of their own (not unique: certification only keys unique indexes). The generated column is the
 * database's alone: the entity does not map it, so no insert or select of the service names it.
 *
 * SQLite keeps its unique (gateway, provider_payment_ref): SQLite's unique indexes treat NULLs as
 * distinct and one database file has no certification, so there is nothing to change there.
 * MySQL/MariaDB (and TiDB): one ALTER TABLE (one replicated DDL on Galera).
 */
export class KeyProviderRefsWithoutNulls1764116500000 implements MigrationInterface {
  name = 'KeyProviderRefsWithoutNulls1764116500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.query(
      `ALTER TABLE \`${payments}\`` +
        " ADD COLUMN `provider_ref_key` varchar(260) GENERATED ALWAYS AS (IF(`provider_payment_ref` IS NULL, CONCAT('none:', `secret_nonce`), CONCAT('ref:', `provider_payment_ref`))) STORED," +
        ` ADD UNIQUE INDEX \`UQ_${payments}_provider_ref_key\` (\`gateway\`, \`provider_ref_key\`),` +
        ` ADD INDEX \`IDX_${payments}_provider_ref\` (\`gateway\`, \`provider_payment_ref\`),` +
        ` DROP INDEX \`UQ_${payments}_provider_ref\``,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.query(
      `ALTER TABLE \`${payments}\`` +
        ` ADD UNIQUE INDEX \`UQ_${payments}_provider_ref\` (\`gateway\`, \`provider_payment_ref\`),` +
        ` DROP INDEX \`IDX_${payments}_provider_ref\`,` +
        ` DROP INDEX \`UQ_${payments}_provider_ref_key\`,` +
        ' DROP COLUMN `provider_ref_key`',
    );
  }
}
