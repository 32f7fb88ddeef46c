import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { OptionsService } from './options.service.js';

export const INSTALLATION_ID_OPTION = 'checkout_installation_id';
const INSTALLATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * This installation's id (docs/decisions.md §14): a random UUID created at first boot and kept in the
 * options table, so it survives restarts and every instance sharing the database reads the same
 * one (instances booting at once agree through the option's unique name, see
 * OptionsService.addIfAbsent). It tells this installation's provider objects, idempotency keys and
 * events from those of another installation on the same provider account.
 *
 * Not a secret (it is written into provider metadata); it is not derived from CHECKOUT_SECRET, so
 * it stays the same when the secret is rotated. A copied database carries the same id.
 */
@Injectable()
export class InstallationService {
  private installationId: string | null = null;

  constructor(private readonly options: OptionsService) {}

  /** Creates the id on first boot or reads it; SettingsModule calls this while the app initialises. */
  async load(): Promise<string> {
    const id = await this.options.addIfAbsent<unknown>(INSTALLATION_ID_OPTION, () => randomUUID());
    if (typeof id !== 'string' || !INSTALLATION_ID.test(id)) {
      throw new Error(`The stored option ${INSTALLATION_ID_OPTION} is not an installation id`);
    }
    this.installationId = id;
    return id;
  }

  /** The installation id; available once the application has initialised (any request, any onApplicationBootstrap). */
  id(): string {
    if (!this.installationId) throw new Error('InstallationService.id() was called before the application initialised');
    return this.installationId;
  }
}
