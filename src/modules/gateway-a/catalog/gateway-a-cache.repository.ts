import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { isDuplicateKeyError } from '../../../database/index.js';
import { GatewayACustomerEntity } from './gateway-a-customer.entity.js';
import { GatewayAPriceEntity } from './gateway-a-price.entity.js';
import { GatewayAProductEntity } from './gateway-a-product.entity.js';

export interface CustomerIdentity {
  accountId: string;
  mode: string;
  emailAddress: string;
}

export interface ProductIdentity {
  accountId: string;
  mode: string;
  formId: number;
  planIndex: number;
}

export interface PriceIdentity extends ProductIdentity {
  priceIndex: number;
  amount: number;
  currency: string;
  frequency: string;
}

/**
 * Inserts a cache row; when a concurrent call inserted the same identity first (unique key), the
 * winner's row is read back instead, so every caller ends up with one provider object.
 */
async function insertOrReadWinner<T extends object>(repository: Repository<T>, identity: Partial<T>, row: Partial<T>): Promise<T> {
  try {
    await repository.insert(row as never);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const stored = await repository.findOneBy(identity as never);
  if (!stored) throw new Error('A gateway-A cache row vanished after its insert');
  return stored;
}

/** The gateway-A customers cache: one provider customer per (account, mode, email). */
@Injectable()
export class GatewayACustomerRepository {
  constructor(@InjectRepository(GatewayACustomerEntity) private readonly customers: Repository<GatewayACustomerEntity>) {}

  find(identity: CustomerIdentity): Promise<GatewayACustomerEntity | null> {
    return this.customers.findOneBy({ ...identity });
  }

  /** Stores the provider customer for `identity`, or returns the row a concurrent call stored first. */
  store(identity: CustomerIdentity, providerCustomerId: string): Promise<GatewayACustomerEntity> {
    return insertOrReadWinner(this.customers, { ...identity }, { ...identity, providerCustomerId, createdAt: new Date() });
  }
}

/** The gateway-A products cache: one provider product per (account, mode, form, plan). */
@Injectable()
export class GatewayAProductRepository {
  constructor(@InjectRepository(GatewayAProductEntity) private readonly products: Repository<GatewayAProductEntity>) {}

  find(identity: ProductIdentity): Promise<GatewayAProductEntity | null> {
    return this.products.findOneBy({ ...identity });
  }

  store(identity: ProductIdentity, providerProductId: string): Promise<GatewayAProductEntity> {
    return insertOrReadWinner(this.products, { ...identity }, { ...identity, providerProductId, createdAt: new Date() });
  }
}

/** The gateway-A prices cache: one provider price per (account, mode, form, plan, price, amount, currency, frequency). */
@Injectable()
export class GatewayAPriceRepository {
  constructor(@InjectRepository(GatewayAPriceEntity) private readonly prices: Repository<GatewayAPriceEntity>) {}

  find(identity: PriceIdentity): Promise<GatewayAPriceEntity | null> {
    return this.prices.findOneBy({ ...identity });
  }

  store(identity: PriceIdentity, providerProductId: string, providerPriceId: string): Promise<GatewayAPriceEntity> {
    return insertOrReadWinner(this.prices, { ...identity }, { ...identity, providerProductId, providerPriceId, createdAt: new Date() });
  }
}
