import type { MigrationInterface, QueryRunner } from 'typeorm';
import { paymentSearchTerms, SEARCH_TERM_MAX_LENGTH } from '../search-terms.js';
import { isMysql, prefixed } from './schema-helpers.js';

/** Payments read per backfill batch: one INSERT of their terms (a few hundred rows), committed on its own. */
const BACKFILL_BATCH = 500;

/**
 * The admin payments search on an index (issue 36): `{prefix}checkout_payment_search_terms`, one row
 * per payment and normalised term (search-terms.ts), keyed `(term, payment_id)` so that a prefix
 * `term LIKE 'x%'` is a range of that key, with an index on `payment_id` for rewriting a payment's
 * terms. SQLite: the column is `COLLATE NOCASE`, which lets its LIKE (case-insensitive) use the key.
 *
 * Then every existing payment's terms, in batches by id, each batch its own statement and commit:
 * not one transaction (a million payments' terms in one Galera write-set would pass its size limit,
 * and would hold the table meanwhile). So the migration runs outside a transaction
 * (`transaction = false`), and can run again after a failure: the table is created only when
 * missing and a term already there is skipped (INSERT IGNORE / INSERT OR IGNORE).
 */
export class CreatePaymentSearchTerms1764300000000 implements MigrationInterface {
  name = 'CreatePaymentSearchTerms1764300000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    const terms = prefixed(queryRunner, 'checkout_payment_search_terms');
    const payments = prefixed(queryRunner, 'checkout_payments');
    const mysql = isMysql(queryRunner);
    if (mysql) {
      await queryRunner.query(
        `CREATE TABLE IF NOT EXISTS \`${terms}\` (\`payment_id\` int NOT NULL, \`term\` varchar(${SEARCH_TERM_MAX_LENGTH}) NOT NULL, ` +
          `PRIMARY KEY (\`term\`, \`payment_id\`), KEY \`IDX_${terms}_payment\` (\`payment_id\`)) ENGINE=InnoDB`,
      );
    } else {
      await queryRunner.query(
        `CREATE TABLE IF NOT EXISTS "${terms}" ("payment_id" integer NOT NULL, "term" varchar(${SEARCH_TERM_MAX_LENGTH}) COLLATE NOCASE NOT NULL, PRIMARY KEY ("term", "payment_id"))`,
      );
      await queryRunner.query(`CREATE INDEX IF NOT EXISTS "IDX_${terms}_payment" ON "${terms}" ("payment_id")`);
    }
    const insert = mysql ? `INSERT IGNORE INTO \`${terms}\` (\`payment_id\`, \`term\`) VALUES ` : `INSERT OR IGNORE INTO "${terms}" ("payment_id", "term") VALUES `;
    let afterId = 0;
    for (;;) {
      const rows = (await queryRunner.query(
        `SELECT id, email_address, first_name, last_name, provider_payment_ref, provider_capture_ref FROM ${mysql ? `\`${payments}\`` : `"${payments}"`} WHERE id > ? ORDER BY id LIMIT ${BACKFILL_BATCH}`,
        [afterId],
      )) as Array<{ id: number | string; email_address: string | null; first_name: string | null; last_name: string | null; provider_payment_ref: string | null; provider_capture_ref: string | null }>;
      if (rows.length === 0) return;
      const values: Array<number | string> = [];
      for (const row of rows) {
        const id = Number(row.id);
        const found = paymentSearchTerms({
          emailAddress: row.email_address,
          firstName: row.first_name,
          lastName: row.last_name,
          providerPaymentRef: row.provider_payment_ref,
          providerCaptureRef: row.provider_capture_ref,
        });
        for (const term of found) values.push(id, term);
      }
      if (values.length) await queryRunner.query(insert + Array.from({ length: values.length / 2 }, () => '(?, ?)').join(', '), values);
      afterId = Number(rows[rows.length - 1].id);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_payment_search_terms'));
  }
}
