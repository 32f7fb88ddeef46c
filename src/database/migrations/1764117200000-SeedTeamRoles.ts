import type { MigrationInterface, QueryRunner } from 'typeorm';
import { prefixed } from './schema-helpers.js';

/**
 * The console's roles as sets of capabilities (issue 30, docs/security.md "Roles"). Every console
 * role holds `checkout_settings` (the interface's admin capability, still checked on every admin
 * route) and the finer capabilities each admin route also names. New roles `support` and `viewer`;
 * `editor` now reaches the forms (it held `edit_checkout_forms` but not `checkout_settings`, so
 * every admin route refused it) and may edit every form, as the host platform's editors edit others'
 * posts. Users keep their role; `author` and `subscriber` stay without console access. Rows a
 * deployment already has are left as they are (only missing ones are added).
 */
export const TEAM_ROLES: ReadonlyArray<{ role: string; displayName: string; capabilities: readonly string[] }> = [
  {
    role: 'administrator',
    displayName: 'Administrator',
    capabilities: [
      'checkout_settings',
      'manage_checkout_settings',
      'manage_checkout_users',
      'edit_checkout_forms',
      'view_checkout_dashboard',
      'read_checkout_payments',
      'refund_checkout_payments',
      'cancel_checkout_subscriptions',
      'resend_checkout_receipts',
    ],
  },
  { role: 'editor', displayName: 'Editor', capabilities: ['checkout_settings', 'edit_checkout_forms', 'edit_others_checkout_forms'] },
  {
    role: 'support',
    displayName: 'Support',
    capabilities: [
      'checkout_settings',
      'view_checkout_dashboard',
      'read_checkout_payments',
      'refund_checkout_payments',
      'cancel_checkout_subscriptions',
      'resend_checkout_receipts',
    ],
  },
  { role: 'viewer', displayName: 'Viewer', capabilities: ['checkout_settings', 'view_checkout_dashboard', 'read_checkout_payments'] },
];

/** What this migration adds to roles that existed before it (its `down` takes exactly these away). */
const ADDED_TO_EXISTING: Record<string, readonly string[]> = {
  administrator: ['manage_checkout_settings', 'manage_checkout_users', 'view_checkout_dashboard', 'read_checkout_payments', 'resend_checkout_receipts'],
  editor: ['checkout_settings', 'edit_others_checkout_forms'],
};

export class SeedTeamRoles1764117200000 implements MigrationInterface {
  name = 'SeedTeamRoles1764117200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const escape = (name: string) => queryRunner.connection.driver.escape(name);
    const roles = escape(prefixed(queryRunner, 'roles'));
    const roleCapabilities = escape(prefixed(queryRunner, 'role_capabilities'));
    // Raw SQL: the entities map these tables by property name, a migration must not depend on them.
    for (const { role, displayName, capabilities } of TEAM_ROLES) {
      const existing = (await queryRunner.query(`SELECT name FROM ${roles} WHERE name = ?`, [role])) as unknown[];
      if (existing.length === 0) await queryRunner.query(`INSERT INTO ${roles} (name, display_name) VALUES (?, ?)`, [role, displayName]);
      const held = new Set(
        ((await queryRunner.query(`SELECT capability FROM ${roleCapabilities} WHERE role = ?`, [role])) as Array<{ capability: string }>).map((row) => row.capability),
      );
      for (const capability of capabilities) {
        if (!held.has(capability)) await queryRunner.query(`INSERT INTO ${roleCapabilities} (role, capability) VALUES (?, ?)`, [role, capability]);
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const escape = (name: string) => queryRunner.connection.driver.escape(name);
    const roles = escape(prefixed(queryRunner, 'roles'));
    const roleCapabilities = escape(prefixed(queryRunner, 'role_capabilities'));
    for (const [role, capabilities] of Object.entries(ADDED_TO_EXISTING)) {
      for (const capability of capabilities) await queryRunner.query(`DELETE FROM ${roleCapabilities} WHERE role = ? AND capability = ?`, [role, capability]);
    }
    for (const role of ['support', 'viewer']) {
      await queryRunner.query(`DELETE FROM ${roleCapabilities} WHERE role = ?`, [role]);
      await queryRunner.query(`DELETE FROM ${roles} WHERE name = ?`, [role]);
    }
  }
}
