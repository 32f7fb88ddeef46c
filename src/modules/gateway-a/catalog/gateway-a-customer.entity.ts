import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A gateway-A customer created for a payer's email (`{prefix}checkout_gateway_a_customers`, migration 1764115300000). */
@Entity({ name: 'checkout_gateway_a_customers' })
export class GatewayACustomerEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'account_id', type: 'varchar', length: 255 })
  accountId: string;

  @Column({ name: 'mode', type: 'varchar', length: 4 })
  mode: string;

  @Column({ name: 'email_address', type: 'varchar', length: 254 })
  emailAddress: string;

  @Column({ name: 'provider_customer_id', type: 'varchar', length: 255 })
  providerCustomerId: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
