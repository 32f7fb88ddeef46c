import { Entity } from 'typeorm';
import { CreatedAtColumn, VarcharColumn } from '../../../database/index.js';
import { GatewayACatalogRow } from './gateway-a-catalog-row.js';

/** A gateway-A customer created for a payer's email (`{prefix}checkout_gateway_a_customers`, migration 1764115300000). */
@Entity({ name: 'checkout_gateway_a_customers' })
export class GatewayACustomerEntity extends GatewayACatalogRow {
  @VarcharColumn('email_address', 254)
  emailAddress: string;

  @VarcharColumn('provider_customer_id', 255)
  providerCustomerId: string;

  @CreatedAtColumn()
  createdAt: Date;
}
