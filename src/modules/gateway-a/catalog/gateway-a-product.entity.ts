import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, IntegerColumn, VarcharColumn } from '../../../database/index.js';

/** A gateway-A product created for one plan of a form (`{prefix}checkout_gateway_a_products`). */
@Entity({ name: 'checkout_gateway_a_products' })
export class GatewayAProductEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('account_id', 255)
  accountId: string;

  @VarcharColumn('mode', 4)
  mode: string;

  @IntegerColumn('form_id')
  formId: number;

  @IntegerColumn('plan_index')
  planIndex: number;

  @VarcharColumn('provider_product_id', 255)
  providerProductId: string;

  @CreatedAtColumn()
  createdAt: Date;
}
