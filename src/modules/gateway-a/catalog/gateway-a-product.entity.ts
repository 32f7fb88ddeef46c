import { Entity } from 'typeorm';
import { CreatedAtColumn, VarcharColumn } from '../../../database/index.js';
import { GatewayAPlanRow } from './gateway-a-catalog-row.js';

/** A gateway-A product created for one plan of a form (`{prefix}checkout_gateway_a_products`). */
@Entity({ name: 'checkout_gateway_a_products' })
export class GatewayAProductEntity extends GatewayAPlanRow {
  @VarcharColumn('provider_product_id', 255)
  providerProductId: string;

  @CreatedAtColumn()
  createdAt: Date;
}
