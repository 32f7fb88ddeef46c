import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { CryptoService } from '../../common/crypto/index.js';
import { UnavailableError } from '../../common/errors/index.js';
import { isDuplicateKeyError, selectRows } from '../../database/index.js';
import { OptionEntity } from './option.entity.js';

/** Compare-and-set rounds before a change gives up (only under heavy write contention on one option). */
const CHANGE_ATTEMPTS = 20;

/**
 * The options store. Values are JSON. Secret options are sealed with AES-256-GCM before they are
 * written and can only be read back whole by server code (`getSecret`) or as a mask.
 */
@Injectable()
export class OptionsService {
  /** The reads of every public payment request and webhook: fixed texts instead of `findOne`/`find` (docs/benchmarks.md). */
  private readonly table: string;
  private readonly getSql: string;
  /** `getMany`'s text per number of names. */
  private readonly getManySql = new Map<number, string>();

  constructor(
    @InjectRepository(OptionEntity) private readonly options: Repository<OptionEntity>,
    private readonly crypto: CryptoService,
  ) {
    this.table = `\`${options.metadata.tableName}\``;
    this.getSql = `SELECT \`option_value\` FROM ${this.table} WHERE \`option_name\` = ? LIMIT 1`;
  }

  async get<T>(name: string, fallback: T, manager?: EntityManager): Promise<T> {
    const rows = await selectRows<{ option_value: string }>(manager ?? this.options.manager, this.getSql, [name]);
    return rows.length ? (JSON.parse(rows[0].option_value) as T) : fallback;
  }

  /** Several options in one query; missing names are absent from the map. */
  async getMany(names: readonly string[]): Promise<Map<string, unknown>> {
    if (names.length === 0) return new Map();
    let sql = this.getManySql.get(names.length);
    if (!sql) {
      sql = `SELECT \`option_name\`, \`option_value\` FROM ${this.table} WHERE \`option_name\` IN (${names.map(() => '?').join(', ')})`;
      // A handful of distinct lengths in practice; bounded all the same.
      if (this.getManySql.size < 32) this.getManySql.set(names.length, sql);
    }
    const rows = await selectRows<{ option_name: string; option_value: string }>(this.options.manager, sql, names);
    return new Map(rows.map((row) => [row.option_name, JSON.parse(row.option_value) as unknown]));
  }

  async set(name: string, value: unknown, manager?: EntityManager): Promise<void> {
    await this.repo(manager).upsert({ name, value: JSON.stringify(value), updatedAt: new Date() }, { conflictPaths: ['name'] });
  }

  /**
   * Read-modify-write of one option that concurrent changes cannot overwrite: the new value is
   * written only if the row is still the one read (compare-and-set), otherwise `change` runs again
   * on the fresh value. No lock is held, so nothing can deadlock.
   */
  async change<T>(name: string, fallback: T, change: (current: T) => T): Promise<T> {
    for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
      const row = await this.options.findOne({ where: { name } });
      const next = change(row ? (JSON.parse(row.value) as T) : fallback);
      const value = JSON.stringify(next);
      if (row) {
        const result = await this.options.update({ id: row.id, value: row.value, updatedAt: row.updatedAt }, { value, updatedAt: new Date() });
        if (result.affected) return next;
      } else {
        try {
          await this.options.insert({ name, value, updatedAt: new Date() });
          return next;
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
        }
      }
    }
    throw new UnavailableError('The setting is being changed by other requests; please try again.');
  }

  /**
   * The stored value of `name`, or `create()` stored as its first value. When several processes
   * add the same option at once, the unique option name lets exactly one insert win and every
   * caller returns the winner's value (the host platform's add_option, made race-free).
   */
  async addIfAbsent<T>(name: string, create: () => T): Promise<T> {
    const existing = await this.options.findOne({ where: { name } });
    if (existing) return JSON.parse(existing.value) as T;
    const value = create();
    try {
      await this.options.insert({ name, value: JSON.stringify(value), updatedAt: new Date() });
      return value;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const winner = await this.options.findOne({ where: { name } });
    if (!winner) throw new UnavailableError('The option was removed while it was being added; please try again.');
    return JSON.parse(winner.value) as T;
  }

  /** One stored sealed secret (any option written by `setSecret`), or null when there is none. */
  async anySealedValue(): Promise<string | null> {
    const row = await this.options.createQueryBuilder('option').where('option.value LIKE :sealed', { sealed: '{"sealed":%' }).orderBy('option.id', 'ASC').getOne();
    if (!row) return null;
    const stored = JSON.parse(row.value) as { sealed?: unknown };
    return typeof stored.sealed === 'string' ? stored.sealed : null;
  }

  async delete(names: string | string[], manager?: EntityManager): Promise<void> {
    const list = Array.isArray(names) ? names : [names];
    if (list.length) await this.repo(manager).delete({ name: In(list) });
  }

  async setSecret(name: string, plaintext: string, manager?: EntityManager): Promise<void> {
    await this.set(name, { sealed: this.crypto.encrypt(plaintext) }, manager);
  }

  async getSecret(name: string, manager?: EntityManager): Promise<string | null> {
    const stored = await this.get<{ sealed: string } | null>(name, null, manager);
    return stored ? this.crypto.decrypt(stored.sealed) : null;
  }

  /** The display mask of a secret option, or null when it is not set. */
  async getSecretMask(name: string): Promise<string | null> {
    const secret = await this.getSecret(name);
    return secret === null ? null : this.crypto.mask(secret);
  }

  private repo(manager?: EntityManager): Repository<OptionEntity> {
    return manager ? manager.getRepository(OptionEntity) : this.options;
  }
}
