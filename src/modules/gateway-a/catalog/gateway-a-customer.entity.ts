import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, VarcharColumn } from '../../../database/index.js';

/** A gateway-A customer created for a payer's email (`{prefix}checkout_gateway_a_customers`, migration 1764115300000). */
@Entity({ name: 'checkout_gateway_a_customers' })
export class GatewayACustomerEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('account_id', 255)
  accountId: string;

  @VarcharColumn('mode', 4)
  mode: string;

  @VarcharColumn('email_address', 254)
  emailAddress: string;

  @VarcharColumn('provider_customer_id', 255)
  providerCustomerId: string;

  @CreatedAtColumn()
  createdAt: Date;
}
