import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A gateway-A price for one price of a plan, per amount/currency/frequency (`{prefix}checkout_gateway_a_prices`). */
@Entity({ name: 'checkout_gateway_a_prices' })
export class GatewayAPriceEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'account_id', type: 'varchar', length: 255 })
  accountId: string;

  @Column({ name: 'mode', type: 'varchar', length: 4 })
  mode: string;

  @Column({ name: 'form_id', type: 'integer' })
  formId: number;

  @Column({ name: 'plan_index', type: 'integer' })
  planIndex: number;

  @Column({ name: 'price_index', type: 'integer' })
  priceIndex: number;

  /** Minor units of `currency` */
  @Column({ name: 'amount', type: 'integer' })
  amount: number;

  @Column({ name: 'currency', type: 'varchar', length: 3 })
  currency: string;

  @Column({ name: 'frequency', type: 'varchar', length: 10 })
  frequency: string;

  @Column({ name: 'provider_product_id', type: 'varchar', length: 255 })
  providerProductId: string;

  @Column({ name: 'provider_price_id', type: 'varchar', length: 255 })
  providerPriceId: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
