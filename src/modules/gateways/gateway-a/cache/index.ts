export { GatewayACustomerEntity } from './gateway-a-customer.entity.js';
export { GatewayAProductEntity } from './gateway-a-product.entity.js';
export { GatewayAPriceEntity } from './gateway-a-price.entity.js';
export {
  GatewayACustomerRepository,
  GatewayAPriceRepository,
  GatewayAProductRepository,
  type CustomerIdentity,
  type PriceIdentity,
  type ProductIdentity,
} from './gateway-a-cache.repository.js';
