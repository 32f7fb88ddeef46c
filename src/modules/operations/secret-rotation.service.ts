import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CryptoService } from '../../common/crypto/index.js';
import { forUpdate, selectRows } from '../../database/index.js';
import { SECRET_CANARY_OPTION, SecretCanary } from '../settings/index.js';

/** Where sealed values live: a column holding one, or a JSON column whose `*sealed*` keys hold them. */
interface SealedColumn {
  /** The table's name without TABLE_PREFIX, as its entity names it. */
  table: string;
  id: string;
  column: string;
  format: 'sealed' | 'json';
}

/**
 * Every value sealed with the key derived from the master secret (CryptoService.encrypt): gateway
 * credentials and the generic webhook secret (options, `{"sealed": ...}`), the secret canary,
 * two-factor secrets, outgoing-webhook endpoint signing secrets, and set-password links waiting in
 * the outbox (`sealed_token`). A new sealed value belongs here (secret-rotation.e2e-spec.ts checks
 * that every `encrypt` caller's value is re-sealed).
 */
const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'options', id: 'option_id', column: 'option_value', format: 'json' },
  { table: 'users', id: 'id', column: 'two_factor_secret', format: 'sealed' },
  { table: 'users', id: 'id', column: 'two_factor_pending_secret', format: 'sealed' },
  { table: 'checkout_webhook_endpoints', id: 'id', column: 'secret_sealed', format: 'sealed' },
  { table: 'checkout_webhook_endpoints', id: 'id', column: 'previous_secret_sealed', format: 'sealed' },
  { table: 'checkout_outbox', id: 'id', column: 'payload', format: 'json' },
];

const SEALED_KEY = /(?:^|_)sealed(?:_|$)/;

export interface RotationReport {
  /** Values opened under CHECKOUT_SECRET_PREVIOUS and sealed again under the current secret. */
  resealed: number;
  /** Values already under the current secret (left as they are). */
  current: number;
  /** Values that open under neither secret: where they are (never what). Left as they are. */
  unreadable: string[];
}

/**
 * `npm run cli -- rotate-secret`: seals every stored secret again under the current CHECKOUT_SECRET,
 * in one transaction. Idempotent: a value already under the current secret is not touched, so a
 * second run changes nothing and reports 0.
 */
@Injectable()
export class SecretRotationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly crypto: CryptoService,
    private readonly canary: SecretCanary,
  ) {}

  async reseal(): Promise<RotationReport> {
    return this.dataSource.transaction(async (manager) => {
      const report: RotationReport = { resealed: 0, current: 0, unreadable: [] };
      for (const location of SEALED_COLUMNS) await this.resealColumn(manager, location, report);
      return report;
    });
  }

  private async resealColumn(manager: EntityManager, location: SealedColumn, report: RotationReport): Promise<void> {
    const table = this.tableName(location.table);
    const column = `\`${location.column}\``;
    const filter = location.format === 'json' ? `${column} LIKE '%sealed%'` : `${column} IS NOT NULL`;
    const nameColumn = location.table === 'options' ? ', `option_name` AS `name`' : '';
    // Locked until the commit: an instance writing one of these meanwhile waits (forUpdate: nothing on SQLite, whose gate serialises).
    const lock = forUpdate(manager);
    const rows = await selectRows<{ id: number; value: string; name?: string }>(
      manager,
      `SELECT \`${location.id}\` AS \`id\`, ${column} AS \`value\`${nameColumn} FROM \`${table}\` WHERE ${filter} ORDER BY \`${location.id}\`${lock}`,
      [],
    );
    for (const row of rows) {
      const where = `${location.table}.${location.column} #${row.id}`;
      let changed: string | null;
      if (row.name === SECRET_CANARY_OPTION) changed = this.resealCanary(row.value, where, report);
      else if (location.format === 'sealed') changed = this.resealValue(row.value, where, report);
      else changed = this.resealJson(row.value, where, report);
      if (changed !== null) await manager.query(`UPDATE \`${table}\` SET ${column} = ? WHERE \`${location.id}\` = ?`, [changed, row.id]);
    }
  }

  /** The value sealed under the current secret, or null when it already is (or opens under neither: reported). */
  private resealValue(sealed: string, where: string, report: RotationReport): string | null {
    let opened;
    try {
      opened = this.crypto.openSealed(sealed);
    } catch {
      report.unreadable.push(where);
      return null;
    }
    if (opened.current) {
      report.current++;
      return null;
    }
    report.resealed++;
    return this.crypto.encrypt(opened.plaintext);
  }

  /** A JSON value with every string under a `*sealed*` key (at any depth) sealed again; null when nothing changed. */
  private resealJson(text: string, where: string, report: RotationReport): string | null {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return null;
    }
    let changed = false;
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
        if (typeof value === 'string' && SEALED_KEY.test(key)) {
          const resealed = this.resealValue(value, `${where} (${key})`, report);
          if (resealed !== null) {
            (node as Record<string, unknown>)[key] = resealed;
            changed = true;
          }
        } else {
          walk(value);
        }
      }
    };
    walk(parsed);
    return changed ? JSON.stringify(parsed) : null;
  }

  /** The canary, written again under the current secret unless both its seal and its MAC already are. */
  private resealCanary(text: string, where: string, report: RotationReport): string | null {
    const stored = JSON.parse(text) as { sealed?: unknown; hmac?: unknown };
    const fresh = this.canary.freshCanary();
    let sealedCurrent: boolean;
    try {
      sealedCurrent = typeof stored.sealed === 'string' && this.crypto.openSealed(stored.sealed).current;
    } catch {
      report.unreadable.push(where);
      return null;
    }
    if (sealedCurrent && typeof stored.hmac === 'string' && this.crypto.safeEqual(stored.hmac, fresh.hmac)) {
      report.current++;
      return null;
    }
    report.resealed++;
    return JSON.stringify(fresh);
  }

  private tableName(given: string): string {
    const metadata = this.dataSource.entityMetadatas.find((candidate) => candidate.givenTableName === given);
    if (!metadata) throw new Error(`No entity for the table ${given}`);
    return metadata.tableName;
  }
}
