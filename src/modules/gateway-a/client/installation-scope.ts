import { Injectable } from '@nestjs/common';
import { InstallationService } from '../../settings/index.js';
import { type IdempotencyKeys, idempotencyKeys } from './idempotency-keys.js';

/** The metadata key that ties a gateway object to the installation that created it. */
export const INSTALLATION_METADATA_KEY = 'checkout_installation_id';

/**
 * What marks the gateway objects of this installation (docs/decisions.md §14): the installation id in
 * every idempotency key and in the metadata of every object this service creates, so that two
 * sites on one gateway account (staging and production) never share an object or an event.
 */
@Injectable()
export class InstallationScope {
  constructor(private readonly installation: InstallationService) {}

  get id(): string {
    return this.installation.id();
  }

  get keys(): IdempotencyKeys {
    return idempotencyKeys(this.installation.id());
  }

  /** `fields` plus this installation's id. */
  metadata(fields: Record<string, string>): Record<string, string> {
    return { [INSTALLATION_METADATA_KEY]: this.installation.id(), ...fields };
  }
}
