import { IdColumn, IntegerColumn, VarcharColumn } from '../../../database/index.js';

/**
 * The columns every gateway-A catalog cache table (customers, products, prices) starts with: its
 * key, then the account and mode the provider object belongs to. The tables' entities extend it;
 * TypeORM puts a base class's columns first, in this order.
 */
export abstract class GatewayACatalogRow {
  @IdColumn()
  id: number;

  @VarcharColumn('account_id', 255)
  accountId: string;

  @VarcharColumn('mode', 4)
  mode: string;
}

/** A catalog row made for one plan of a form (products and prices): the form and the plan come next. */
export abstract class GatewayAPlanRow extends GatewayACatalogRow {
  @IntegerColumn('form_id')
  formId: number;

  @IntegerColumn('plan_index')
  planIndex: number;
}
