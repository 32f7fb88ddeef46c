import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { CryptoModule } from '../../common/crypto/index.js';
import { MailModule } from '../mail/index.js';
import { OutboxModule } from '../outbox/index.js';
import { ApplicationPasswordEntity } from './application-password.entity.js';
import { ConsoleSessionEntity } from './console-session.entity.js';
import { IdentityModule } from './identity.module.js';
import { RoleCapabilityEntity, RoleEntity } from './role-capability.entity.js';
import { TeamController } from './team.controller.js';
import { TeamService } from './team.service.js';
import { UserEntity } from './user.entity.js';

/**
 * The team API (issue 30). Its invitations are account tokens of AccountService (IdentityModule),
 * emailed through the outbox like password resets.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([UserEntity, RoleEntity, RoleCapabilityEntity, ApplicationPasswordEntity, ConsoleSessionEntity]),
    ClockModule,
    CryptoModule,
    IdentityModule,
    MailModule,
    OutboxModule,
  ],
  controllers: [TeamController],
  providers: [TeamService],
})
export class TeamModule {}
