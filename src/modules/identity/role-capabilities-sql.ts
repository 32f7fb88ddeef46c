import type { EntityManager } from 'typeorm';
import { selectRows } from '../../database/index.js';

/**
 * A role's capabilities as two columns of the credential and session lookups, instead of one joined
 * row per capability: an administrator holds a dozen, and reading a dozen wide rows on every admin
 * request cost about 20 µs of its ~440 (bench profile of `GET /plugin/status`, docs/benchmarks.md).
 * The count beside the list tells a whole list from one the database cut short (MySQL's
 * `group_concat_max_len` defaults to 1,024 bytes; MariaDB's to 1 MiB).
 */
export function capabilityColumns(roleCapabilitiesTable: string, roleColumn: string): string {
  const from = ` FROM ${roleCapabilitiesTable} \`c\` WHERE \`c\`.\`role\` = ${roleColumn}`;
  return `(SELECT GROUP_CONCAT(\`c\`.\`capability\`)${from}) AS \`capabilities\`, (SELECT COUNT(*)${from}) AS \`capability_count\``;
}

/** The two columns `capabilityColumns` adds to a row. */
export interface CapabilityColumns {
  capabilities: string | null;
  capability_count: number | string;
}

/**
 * The role's capabilities from a looked-up row; when the list came back shorter than the count,
 * from the role's rows themselves (capability names hold no comma: they are identifiers).
 */
export async function readCapabilities(row: CapabilityColumns, role: string, manager: EntityManager, roleCapabilitiesTable: string): Promise<ReadonlySet<string>> {
  const listed = new Set(row.capabilities ? row.capabilities.split(',') : []);
  if (listed.size === Number(row.capability_count)) return listed;
  const rows = await selectRows<{ capability: string }>(manager, `SELECT \`capability\` FROM ${roleCapabilitiesTable} WHERE \`role\` = ?`, [role]);
  return new Set(rows.map((r) => r.capability));
}
