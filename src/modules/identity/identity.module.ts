import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { CryptoModule } from '../../common/crypto/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { MailModule } from '../mail/index.js';
import { OutboxModule } from '../outbox/index.js';
import { AccountController } from './accounts/account.controller.js';
import { AccountEmails } from './accounts/account-emails.js';
import { AccountTokenEntity, RecoveryCodeEntity } from './accounts/account-token.entity.js';
import { AccountService } from './accounts/account.service.js';
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
  imports: [
    TypeOrmModule.forFeature([UserEntity, RoleEntity, RoleCapabilityEntity, ApplicationPasswordEntity, ConsoleSessionEntity, AccountTokenEntity, RecoveryCodeEntity]),
    ClockModule,
    CryptoModule,
    MailModule,
    OutboxModule,
  ],
  controllers: [ConsoleSessionController, AccountController],
  providers: [IdentityService, AccountService, AccountEmails, FailedLoginLimiter, PasswordCheck, ConsoleSessionService, AuthorizationGuard],
  exports: [IdentityService, AccountService, AuthorizationGuard],
})
export class IdentityModule implements OnApplicationBootstrap {
  constructor(
    private readonly identity: IdentityService,
    private readonly accounts: AccountService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * First boot: `admin`, with CHECKOUT_ADMIN_PASSWORD as its application password and its account
   * password. Without it, and on every boot while no administrator has an account password, a setup
   * link is printed (docs/security.md "Accounts").
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.identity.adoptUnmarkedHashes();
    const admin = await this.identity.ensureFirstAdmin();
    if (admin && this.config.adminPassword) await this.accounts.setInitialPassword(admin.id, this.config.adminPassword);
    await this.accounts.printSetupLinkIfNeeded();
  }
}
