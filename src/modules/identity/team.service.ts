import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, Not, Repository } from 'typeorm';
import { Clock } from '../../common/clock/index.js';
import { isDuplicateKeyError, locksRows } from '../../database/index.js';
import { AccountService, type OpenInvitation } from './accounts/account.service.js';
import { ApplicationPasswordEntity } from './application-password.entity.js';
import { ConsoleSessionEntity } from './console-session.entity.js';
import { LastAdministratorError, UserEmailExistsError, UserExistsError, UserNotFoundError } from './identity.errors.js';
import { RoleCapabilityEntity, RoleEntity } from './role-capability.entity.js';
import { CONSOLE_ROLES, type ConsoleRole } from './team.dto.js';
import { UserEntity } from './user.entity.js';

/** The role that manages the team; the last user holding it cannot lose it. */
const ADMINISTRATOR = 'administrator';

export interface TeamMember {
  user: UserEntity;
  /** The invitation not used yet (its `invite` account token), or null */
  invitation: OpenInvitation | null;
}

export interface NewTeamMember {
  login: string;
  email: string;
  displayName?: string;
  role: ConsoleRole;
}

export interface TeamMemberChange {
  login?: string;
  email?: string;
  displayName?: string;
  role?: ConsoleRole;
}

export interface RoleDescription {
  name: string;
  displayName: string;
  capabilities: string[];
  assignable: boolean;
}

/**
 * The team (issue 30, docs/administration.md "Team"): teammates with roles, invited by email.
 *
 * - A new teammate gets an invitation (7 days, single use) whose email goes through the outbox in
 *   the creating transaction: an `invite` account token (AccountService), spent by the
 *   set-password routes like any set-password link.
 * - A changed role or a deleted user ends the user's console sessions and revokes their
 *   application passwords in the same transaction: every admin request reads both fresh, so the
 *   next request of that user is refused on every instance.
 * - The last administrator cannot be demoted or deleted (409 `checkout_last_administrator`): the
 *   administrators' rows are read under a lock (FOR UPDATE on MySQL/MariaDB; SQLite serialises
 *   transactions), so two administrators demoting each other at once cannot both succeed.
 */
@Injectable()
export class TeamService {
  private readonly logger = new Logger(TeamService.name);

  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>,
    @InjectRepository(RoleCapabilityEntity) private readonly roleCapabilities: Repository<RoleCapabilityEntity>,
    private readonly dataSource: DataSource,
    private readonly accounts: AccountService,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<TeamMember[]> {
    const users = await this.users.find({ order: { id: 'ASC' } });
    const invitations = await this.accounts.openInvitations(users.map((user) => user.id));
    return users.map((user) => ({ user, invitation: invitations.get(user.id) ?? null }));
  }

  async get(id: number): Promise<TeamMember> {
    const user = await this.users.findOne({ where: { id } });
    if (!user) throw new UserNotFoundError();
    return { user, invitation: await this.openInvitation(this.dataSource.manager, id) };
  }

  /** The roles with their capabilities, from the roles table (the console roles first). */
  async roleTable(): Promise<RoleDescription[]> {
    const [roles, grants] = await Promise.all([this.roles.find(), this.roleCapabilities.find()]);
    const order = (name: string) => {
      const index = (CONSOLE_ROLES as readonly string[]).indexOf(name);
      return index === -1 ? CONSOLE_ROLES.length : index;
    };
    return roles
      .sort((a, b) => order(a.name) - order(b.name) || a.name.localeCompare(b.name))
      .map((role) => ({
        name: role.name,
        displayName: role.displayName,
        capabilities: grants.filter((grant) => grant.role === role.name).map((grant) => grant.capability).sort(),
        assignable: (CONSOLE_ROLES as readonly string[]).includes(role.name),
      }));
  }

  /** Creates the user and their invitation; the invitation email leaves through the outbox after the commit. */
  async invite(input: NewTeamMember, invitedBy: number): Promise<TeamMember> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await this.requireUnique(manager, { login: input.login, email: input.email });
        const now = this.clock.now();
        const user = await manager.save(
          manager.create(UserEntity, { login: input.login, email: input.email, role: input.role, displayName: input.displayName ?? input.login, createdAt: now, lastSignInAt: null }),
        );
        await this.accounts.invite(manager, user.id);
        this.logger.log({ user_id: user.id, role: user.role, invited_by: invitedBy }, 'team member invited');
        return { user, invitation: await this.openInvitation(manager, user.id) };
      });
    } catch (error) {
      // Two requests creating the same login at once: the unique key decides.
      if (isDuplicateKeyError(error)) throw new UserExistsError();
      throw error;
    }
  }

  /** A new invitation for a user (the earlier one stops working): e.g. after the first expired. */
  async reinvite(id: number, invitedBy: number): Promise<TeamMember> {
    return this.dataSource.transaction(async (manager) => {
      const user = await manager.findOne(UserEntity, { where: { id } });
      if (!user) throw new UserNotFoundError();
      await this.accounts.invite(manager, user.id);
      this.logger.log({ user_id: user.id, invited_by: invitedBy }, 'team member invited again');
      return { user, invitation: await this.openInvitation(manager, user.id) };
    });
  }

  async update(id: number, change: TeamMemberChange): Promise<TeamMember> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        const user = await manager.findOne(UserEntity, { where: { id } });
        if (!user) throw new UserNotFoundError();
        await this.requireUnique(manager, { login: change.login, email: change.email }, id);
        const roleChanged = change.role !== undefined && change.role !== user.role;
        if (roleChanged && user.role === ADMINISTRATOR) await this.requireAnotherAdministrator(manager, id);
        if (change.login !== undefined) user.login = change.login;
        if (change.email !== undefined) user.email = change.email;
        if (change.displayName !== undefined) user.displayName = change.displayName;
        if (change.role !== undefined) user.role = change.role;
        await manager.save(user);
        if (roleChanged) {
          await this.endAccess(manager, id);
          this.logger.log({ user_id: id, role: user.role }, 'team member role changed: sessions ended, application passwords revoked');
        }
        return { user, invitation: await this.openInvitation(manager, id) };
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new UserExistsError();
      throw error;
    }
  }

  /** Deletes the user with their sessions, application passwords and account tokens (invitations, resets); answers them as they were. */
  async remove(id: number): Promise<TeamMember> {
    return this.dataSource.transaction(async (manager) => {
      const user = await manager.findOne(UserEntity, { where: { id } });
      if (!user) throw new UserNotFoundError();
      if (user.role === ADMINISTRATOR) await this.requireAnotherAdministrator(manager, id);
      const invitation = await this.openInvitation(manager, id);
      await this.endAccess(manager, id);
      await this.accounts.deleteAccountDataOf(manager, id);
      await manager.delete(UserEntity, { id });
      this.logger.log({ user_id: id }, 'team member deleted');
      return { user, invitation };
    });
  }

  /** Ends every console session of the user and revokes all their application passwords. */
  private async endAccess(manager: EntityManager, userId: number): Promise<void> {
    await manager.delete(ConsoleSessionEntity, { userId });
    await manager.delete(ApplicationPasswordEntity, { userId });
  }

  private async requireAnotherAdministrator(manager: EntityManager, exceptId: number): Promise<void> {
    // Every administrator's row, locked in id order (so two such transactions queue instead of
    // deadlocking), read as committed: the second of two concurrent demotions sees the first's.
    const administrators = await manager.find(UserEntity, {
      select: { id: true },
      where: { role: ADMINISTRATOR },
      order: { id: 'ASC' },
      ...(locksRows(manager) ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!administrators.some((user) => user.id !== exceptId)) throw new LastAdministratorError();
  }

  private async requireUnique(manager: EntityManager, fields: { login?: string; email?: string }, exceptId?: number): Promise<void> {
    const other = (where: object) => manager.exists(UserEntity, { where: { ...where, ...(exceptId === undefined ? {} : { id: Not(exceptId) }) } });
    if (fields.login !== undefined && (await other({ login: fields.login }))) throw new UserExistsError();
    if (fields.email !== undefined && (await other({ email: fields.email }))) throw new UserEmailExistsError();
  }

  private async openInvitation(manager: EntityManager, userId: number): Promise<OpenInvitation | null> {
    return (await this.accounts.openInvitations([userId], manager)).get(userId) ?? null;
  }
}
