import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A gateway-A product created for one plan of a form (`{prefix}checkout_gateway_a_products`). */
@Entity({ name: 'checkout_gateway_a_products' })
export class GatewayAProductEntity {
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

  @Column({ name: 'provider_product_id', type: 'varchar', length: 255 })
  providerProductId: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
