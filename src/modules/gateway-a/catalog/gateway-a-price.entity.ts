import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, IntegerColumn, VarcharColumn } from '../../../database/index.js';

/** A gateway-A price for one price of a plan, per amount/currency/frequency (`{prefix}checkout_gateway_a_prices`). */
@Entity({ name: 'checkout_gateway_a_prices' })
export class GatewayAPriceEntity {
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
