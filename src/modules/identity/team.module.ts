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
import { UserInvitationEntity } from './user-invitation.entity.js';
import { UserInvitations } from './user-invitations.js';
import { UserEntity } from './user.entity.js';

/**
 * The team API and invitation emails (issue 30). Apart from IdentityModule because it needs the
 * outbox and mail, which the CLI (it imports IdentityModule alone) must not start.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([UserEntity, RoleEntity, RoleCapabilityEntity, ApplicationPasswordEntity, ConsoleSessionEntity, UserInvitationEntity]),
    ClockModule,
    CryptoModule,
    IdentityModule,
    MailModule,
    OutboxModule,
  ],
  controllers: [TeamController],
  providers: [TeamService, UserInvitations],
  exports: [UserInvitations],
})
export class TeamModule {}
