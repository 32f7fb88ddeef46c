import { Entity } from 'typeorm';
import { CreatedAtColumn, IntegerColumn, VarcharColumn } from '../../../database/index.js';
import { GatewayAPlanRow } from './gateway-a-catalog-row.js';

/** A gateway-A price for one price of a plan, per amount/currency/frequency (`{prefix}checkout_gateway_a_prices`). */
@Entity({ name: 'checkout_gateway_a_prices' })
export class GatewayAPriceEntity extends GatewayAPlanRow {
  @IntegerColumn('price_index')
  priceIndex: number;

  /** Minor units of `currency` */
  @IntegerColumn('amount')
  amount: number;

  @VarcharColumn('currency', 3)
  currency: string;

  @VarcharColumn('frequency', 10)
  frequency: string;

  @VarcharColumn('provider_product_id', 255)
  providerProductId: string;

  @VarcharColumn('provider_price_id', 255)
  providerPriceId: string;

  @CreatedAtColumn()
  createdAt: Date;
}
