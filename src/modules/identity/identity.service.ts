import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { In, IsNull, Not, Repository } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { CryptoService } from '../../common/crypto/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { isDuplicateKeyError, readNullableDatetime, selectRows } from '../../database/index.js';
import { RecoveryCodeEntity } from './accounts/account-token.entity.js';
import { capabilityColumns, type CapabilityColumns, readCapabilities } from './role-capabilities-sql.js';
import { ApplicationPasswordEntity } from './application-password.entity.js';
import { generateApplicationPassword, normaliseApplicationPassword } from './application-password.js';
import { UnknownRoleError, UserExistsError, UserNotFoundError } from './identity.errors.js';
import { RoleCapabilityEntity, RoleEntity } from './role-capability.entity.js';
import { UserEntity } from './user.entity.js';

const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

export interface ApplicationPasswordSummary {
  uuid: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  last_ip: string | null;
}

/** Credentials still keyed by CHECKOUT_SECRET_PREVIOUS (or by a secret before key ids were recorded). */
export interface StaleCredentials {
  applicationPasswords: Array<ApplicationPasswordSummary & { login: string }>;
  /** Logins with unused recovery codes made under another secret. */
  recoveryCodeUsers: string[];
}

/** Credentials that matched: the user and the id of the application password they used. */
export interface VerifiedCredentials {
  user: AuthenticatedUser;
  applicationPasswordId: number;
}

/** One row of the credential join: the password, its user, one of the role's capabilities (or null). */
interface CredentialRow extends CapabilityColumns {
  password_id: number;
  password_hash: string;
  last_used_at: Date | string | null;
  last_ip: string | null;
  user_id: number;
  user_login: string;
  role: string;
}

/** Users, roles and application passwords: the slice of the host platform the plugin relies on. */
@Injectable()
export class IdentityService {
  private readonly logger = new Logger(IdentityService.name);
  /** The credential join of every admin request, a fixed text instead of the query builder (docs/benchmarks.md). */
  private readonly credentialSql: string;
  private readonly roleCapabilitiesTable: string;

  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>,
    @InjectRepository(RoleCapabilityEntity) private readonly roleCapabilities: Repository<RoleCapabilityEntity>,
    @InjectRepository(ApplicationPasswordEntity) private readonly passwords: Repository<ApplicationPasswordEntity>,
    private readonly crypto: CryptoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const table = (repository: Repository<object>) => `\`${repository.metadata.tableName}\``;
    this.roleCapabilitiesTable = table(roleCapabilities);
    this.credentialSql =
      'SELECT `p`.`id` AS `password_id`, `p`.`password_hash`, `p`.`last_used_at`, `p`.`last_ip`, `u`.`id` AS `user_id`, `u`.`user_login`, `u`.`role`, ' +
      capabilityColumns(this.roleCapabilitiesTable, '`u`.`role`') +
      ` FROM ${table(passwords)} \`p\` INNER JOIN ${table(users)} \`u\` ON \`u\`.\`id\` = \`p\`.\`user_id\`` +
      ' WHERE `u`.`user_login` = ? AND `p`.`password_hash` = ?';
  }

  /**
   * Resolves Basic credentials to a user with capabilities, or null when they do not match.
   *
   * One statement (user, application password and the role's capabilities), read fresh on
   * every request: a revoked password or a changed role or capability, whichever instance or the
   * CLI changed it, counts from the next request on; nothing is cached. It runs the same way for an
   * unknown login, so the answer time does not tell which logins exist.
   */
  async authenticate(login: string, password: string, ip: string): Promise<AuthenticatedUser | null> {
    return (await this.verifyCredentials(login, password, ip))?.user ?? null;
  }

  /** `authenticate`, also naming the application password that matched (a console session is tied to it). */
  async verifyCredentials(login: string, password: string, ip: string): Promise<VerifiedCredentials | null> {
    const [hash, previousHash] = this.passwordHashes(password);
    let [first] = await selectRows<CredentialRow>(this.passwords.manager, this.credentialSql, [login, hash]);
    let rekey = false;
    if (!first && previousHash !== undefined) {
      // During a rotation: a password hashed under CHECKOUT_SECRET_PREVIOUS, re-keyed below now that it matched.
      [first] = await selectRows<CredentialRow>(this.passwords.manager, this.credentialSql, [login, previousHash]);
      rekey = first !== undefined;
    }
    if (!first || !this.crypto.safeEqual(first.password_hash, rekey ? previousHash! : hash)) return null;
    const passwordId = Number(first.password_id);
    if (rekey) {
      // Conditional on the old hash: two requests re-keying at once both succeed, once.
      await this.passwords.update({ id: passwordId, passwordHash: previousHash }, { passwordHash: hash, secretKeyId: this.crypto.keyId });
      this.logger.log({ user_id: Number(first.user_id), password_id: passwordId }, 'application password re-keyed under the current secret');
    }
    const lastUsedAt = readNullableDatetime(first.last_used_at);
    if (!lastUsedAt || Date.now() - lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS || first.last_ip !== ip) {
      await this.passwords.update({ id: passwordId }, { lastUsedAt: new Date(), lastIp: ip });
    }
    const capabilities = await readCapabilities(first, first.role, this.passwords.manager, this.roleCapabilitiesTable);
    return { user: { id: Number(first.user_id), login: first.user_login, role: first.role, capabilities }, applicationPasswordId: passwordId };
  }

  async capabilitiesOf(role: string): Promise<ReadonlySet<string>> {
    const rows = await this.roleCapabilities.find({ where: { role } });
    return new Set(rows.map((row) => row.capability));
  }

  async countUsers(): Promise<number> {
    return this.users.count();
  }

  async createUser(input: { login: string; email: string; role: string; displayName?: string }): Promise<UserEntity> {
    if (!(await this.roles.exists({ where: { name: input.role } }))) throw new UnknownRoleError();
    if (await this.users.exists({ where: { login: input.login } })) throw new UserExistsError();
    const user = this.users.create({ login: input.login, email: input.email, role: input.role, displayName: input.displayName ?? input.login, createdAt: new Date() });
    // One INSERT, not save(): save() wraps it in a transaction of its own, which the conflict retry
    // (installConflictRetry) does not cover. Two instances booting together on Galera both create
    // `admin`; the loser hears of it at commit as a certification failure (1213), and crashed its
    // boot. A lone statement is retried, and then fails as the duplicate it is (UserExistsError's case).
    await this.users.insert(user);
    return user;
  }

  /** Display names by user id, for screens that say who did something; an unknown id is absent. */
  readonly displayNames = async (ids: readonly number[]): Promise<ReadonlyMap<number, string>> => {
    if (ids.length === 0) return new Map();
    const rows = await this.users.find({ select: { id: true, displayName: true }, where: { id: In([...ids]) } });
    return new Map(rows.map((row) => [row.id, row.displayName]));
  };

  async findUserByLogin(login: string): Promise<UserEntity> {
    const user = await this.users.findOne({ where: { login } });
    if (!user) throw new UserNotFoundError();
    return user;
  }

  /** Creates an application password; the plain password is returned here and never again. */
  async createApplicationPassword(userId: number, name: string, password = generateApplicationPassword()): Promise<{ uuid: string; password: string }> {
    const uuid = randomUUID();
    await this.passwords.insert({ uuid, userId, name, passwordHash: this.hashPassword(password), secretKeyId: this.crypto.keyId, createdAt: new Date(), lastUsedAt: null, lastIp: null });
    this.logger.log({ user_id: userId, uuid }, 'application password created');
    return { uuid, password };
  }

  async listApplicationPasswords(userId: number): Promise<ApplicationPasswordSummary[]> {
    const rows = await this.passwords.find({ where: { userId }, order: { id: 'ASC' } });
    return rows.map(toSummary);
  }

  /** One of the user's application passwords (never its hash), or null. */
  async findApplicationPassword(userId: number, uuid: string): Promise<ApplicationPasswordSummary | null> {
    const row = await this.passwords.findOne({ where: { userId, uuid } });
    return row ? toSummary(row) : null;
  }

  /** Returns whether a password was revoked. */
  async revokeApplicationPassword(userId: number, uuid: string): Promise<boolean> {
    const result = await this.passwords.delete({ userId, uuid });
    if (result.affected) this.logger.log({ user_id: userId, uuid }, 'application password revoked');
    return Boolean(result.affected);
  }

  /**
   * First boot: with no users at all, create `admin` (administrator) and return it. Its application
   * password is CHECKOUT_ADMIN_PASSWORD when set, otherwise generated and printed once on stdout
   * (IdentityModule then sets the account password or prints the setup link).
   */
  async ensureFirstAdmin(): Promise<UserEntity | null> {
    if ((await this.countUsers()) > 0) return null;
    let admin: UserEntity;
    try {
      admin = await this.createUser({ login: 'admin', email: 'admin@localhost', role: 'administrator', displayName: 'Administrator' });
    } catch (error) {
      // Instances booting together on a fresh database: another one created `admin` just now.
      if (error instanceof UserExistsError || isDuplicateKeyError(error)) return null;
      throw error;
    }
    const { password } = await this.createApplicationPassword(admin.id, 'first boot', this.config.adminPassword);
    if (!this.config.adminPassword) {
      process.stdout.write(
        `\nCheckout API: created user "admin" (administrator).\nIts application password, shown only this once: ${password}\n` +
          'Use it as HTTP Basic credentials admin:<password>. Manage users with `npm run cli`.\n\n',
      );
    }
    return admin;
  }

  /**
   * Outside a rotation, marks the application-password and recovery-code hashes stored before their
   * key was recorded (migration 1764118000000) as keyed by the current secret: the secret canary
   * has just confirmed it is the database's, so they can be under no other.
   */
  async adoptUnmarkedHashes(): Promise<void> {
    if (this.crypto.rotating) return;
    await this.passwords.update({ secretKeyId: IsNull() }, { secretKeyId: this.crypto.keyId });
    await this.passwords.manager.update(RecoveryCodeEntity, { secretKeyId: IsNull() }, { secretKeyId: this.crypto.keyId });
  }

  /**
   * What stops working when CHECKOUT_SECRET_PREVIOUS is removed: application passwords not used
   * since the rotation began (each is re-keyed on its next successful use) and users whose unused
   * recovery codes were made under the previous secret (a code is used once: they make new ones).
   */
  async staleCredentials(): Promise<StaleCredentials> {
    const current = this.crypto.keyId;
    const notCurrent = [{ secretKeyId: Not(current) }, { secretKeyId: IsNull() }];
    const passwords = await this.passwords.find({ where: notCurrent, order: { id: 'ASC' } });
    const codes = await this.passwords.manager.find(RecoveryCodeEntity, { where: notCurrent.map((where) => ({ ...where, usedAt: IsNull() })) });
    const userIds = [...new Set([...passwords.map((row) => row.userId), ...codes.map((row) => row.userId)])];
    const users = userIds.length ? await this.users.find({ where: { id: In(userIds) } }) : [];
    const loginOf = new Map(users.map((user) => [user.id, user.login]));
    return {
      applicationPasswords: passwords.map((row) => ({ login: loginOf.get(row.userId) ?? `#${row.userId}`, ...toSummary(row) })),
      recoveryCodeUsers: [...new Set(codes.map((row) => row.userId))].map((id) => loginOf.get(id) ?? `#${id}`).sort(),
    };
  }

  /** Keyed fast hash: application passwords are 142-bit random, so HMAC-SHA256 is the right store. */
  private hashPassword(password: string): string {
    return this.crypto.hmac('application-password', normaliseApplicationPassword(password)).toString('hex');
  }

  /** The hash under the current secret, and under CHECKOUT_SECRET_PREVIOUS during a rotation. */
  private passwordHashes(password: string): string[] {
    return this.crypto.hmacCandidates('application-password', normaliseApplicationPassword(password)).map((hash) => hash.toString('hex'));
  }
}

function toSummary(row: ApplicationPasswordEntity): ApplicationPasswordSummary {
  return {
    uuid: row.uuid,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    last_ip: row.lastIp,
  };
}
