import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { CryptoModule } from '../../common/crypto/index.js';
import { ApplicationPasswordEntity } from './application-password.entity.js';
import { AuthorizationGuard } from './authorization.guard.js';
import { ConsoleSessionController } from './console-session.controller.js';
import { ConsoleSessionEntity } from './console-session.entity.js';
import { ConsoleSessionService } from './console-session.service.js';
import { FailedLoginLimiter } from './failed-login-limiter.js';
import { IdentityService } from './identity.service.js';
import { PasswordCheck } from './password-check.js';
import { RoleCapabilityEntity, RoleEntity } from './role-capability.entity.js';
import { UserEntity } from './user.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, RoleEntity, RoleCapabilityEntity, ApplicationPasswordEntity, ConsoleSessionEntity]), ClockModule, CryptoModule],
  controllers: [ConsoleSessionController],
  providers: [IdentityService, FailedLoginLimiter, PasswordCheck, ConsoleSessionService, AuthorizationGuard],
  exports: [IdentityService, AuthorizationGuard],
})
export class IdentityModule implements OnApplicationBootstrap {
  constructor(private readonly identity: IdentityService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.identity.ensureFirstAdmin();
  }
}
