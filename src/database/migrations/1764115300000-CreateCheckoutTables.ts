import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, longText, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * The plugin's own tables (CHECKOUT_TABLE_* constants): payments, log, the gateway-A
 * customer/product/price caches, and the tag vocabulary.
 */
export class CreateCheckoutTables1764115300000 implements MigrationInterface {
  name = 'CreateCheckoutTables1764115300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    const log = prefixed(queryRunner, 'checkout_log');
    const customers = prefixed(queryRunner, 'checkout_gateway_a_customers');
    const products = prefixed(queryRunner, 'checkout_gateway_a_products');
    const prices = prefixed(queryRunner, 'checkout_gateway_a_prices');
    const tags = prefixed(queryRunner, 'checkout_tags');

    await queryRunner.createTable(
      new Table({
        name: payments,
        columns: [
          idColumn(),
          integer('form_id', true),
          integer('parent_payment_id', true),
          varchar('gateway', 20),
          varchar('payment_method', 40),
          varchar('mode', 4),
          varchar('status', 20),
          integer('amount'),
          { name: 'currency', type: 'varchar', length: '3' },
          integer('application_fee_amount', true),
          integer('amount_received', true),
          integer('plan_index', true),
          integer('price_index', true),
          varchar('frequency', 10),
          varchar('email_address', 254, true),
          varchar('first_name', 100, true),
          varchar('last_name', 100, true),
          longText(queryRunner, 'custom_fields'),
          varchar('secret_nonce', 43),
          varchar('provider_payment_ref', 255, true),
          varchar('provider_customer_ref', 255, true),
          varchar('provider_subscription_ref', 255, true),
          varchar('provider_capture_ref', 255, true),
          varchar('subscription_status', 30, true),
          varchar('client_ip', 45, true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        indices: [
          { name: `IDX_${payments}_form`, columnNames: ['form_id'] },
          { name: `IDX_${payments}_status`, columnNames: ['status'] },
          { name: `IDX_${payments}_created`, columnNames: ['created_at'] },
          { name: `IDX_${payments}_parent`, columnNames: ['parent_payment_id'] },
          { name: `IDX_${payments}_subscription`, columnNames: ['provider_subscription_ref'] },
        ],
        uniques: [{ name: `UQ_${payments}_provider_ref`, columnNames: ['gateway', 'provider_payment_ref'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: log,
        columns: [
          idColumn(),
          integer('payment_id', true),
          varchar('level', 10),
          varchar('event', 60),
          { name: 'message', type: 'varchar', length: '500' },
          longText(queryRunner, 'context'),
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [
          { name: `IDX_${log}_payment`, columnNames: ['payment_id'] },
          { name: `IDX_${log}_created`, columnNames: ['created_at'] },
        ],
      }),
    );

    // Gateway-A caches: unique (account, mode, identity) so concurrent checkouts create one of each.
    await queryRunner.createTable(
      new Table({
        name: customers,
        columns: [
          idColumn(),
          varchar('account_id', 255),
          varchar('mode', 4),
          varchar('email_address', 254),
          varchar('provider_customer_id', 255),
          timestampColumn(queryRunner, 'created_at'),
        ],
        uniques: [
          { name: `UQ_${customers}_identity`, columnNames: ['account_id', 'mode', 'email_address'] },
          { name: `UQ_${customers}_provider`, columnNames: ['provider_customer_id'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: products,
        columns: [
          idColumn(),
          varchar('account_id', 255),
          varchar('mode', 4),
          integer('form_id'),
          integer('plan_index'),
          varchar('provider_product_id', 255),
          timestampColumn(queryRunner, 'created_at'),
        ],
        uniques: [
          { name: `UQ_${products}_identity`, columnNames: ['account_id', 'mode', 'form_id', 'plan_index'] },
          { name: `UQ_${products}_provider`, columnNames: ['provider_product_id'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: prices,
        columns: [
          idColumn(),
          varchar('account_id', 255),
          varchar('mode', 4),
          integer('form_id'),
          integer('plan_index'),
          integer('price_index'),
          integer('amount'),
          { name: 'currency', type: 'varchar', length: '3' },
          varchar('frequency', 10),
          varchar('provider_product_id', 255),
          varchar('provider_price_id', 255),
          timestampColumn(queryRunner, 'created_at'),
        ],
        uniques: [
          {
            name: `UQ_${prices}_identity`,
            columnNames: ['account_id', 'mode', 'form_id', 'plan_index', 'price_index', 'amount', 'currency', 'frequency'],
          },
          { name: `UQ_${prices}_provider`, columnNames: ['provider_price_id'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: tags,
        columns: [idColumn('tag_id'), varchar('tag', 100), timestampColumn(queryRunner, 'created_at')],
        uniques: [{ name: `UQ_${tags}_tag`, columnNames: ['tag'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['checkout_tags', 'checkout_gateway_a_prices', 'checkout_gateway_a_products', 'checkout_gateway_a_customers', 'checkout_log', 'checkout_payments']) {
      await queryRunner.dropTable(prefixed(queryRunner, name));
    }
  }
}
