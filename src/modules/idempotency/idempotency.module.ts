import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { CryptoModule } from '../../common/crypto/index.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';
import { IdempotencyKeyRepository } from './idempotency-key.repository.js';
import { IdempotencyGuard } from './idempotency.guard.js';
import { IdempotencyService } from './idempotency.service.js';

/**
 * `Idempotency-Key` on the public creating POSTs: the keys table, the guard that looks a key up
 * before the rate limiter (registered first in app.module), and the service the creating services
 * run their work through.
 */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKeyEntity]), ClockModule, CryptoModule],
  providers: [IdempotencyKeyRepository, IdempotencyService, IdempotencyGuard],
  exports: [IdempotencyService, IdempotencyGuard],
})
export class IdempotencyModule {}
