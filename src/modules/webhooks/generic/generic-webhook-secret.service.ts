import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CryptoService } from '../../../common/crypto/index.js';
import { UnavailableError } from '../../../common/errors/index.js';
import { CHECKOUT_ALIAS } from '../../../config/index.js';
import { OptionsService } from '../../settings/index.js';

/** The option holding the site's generic webhook secret (sealed). */
export const GENERIC_WEBHOOK_SECRET_OPTION = `${CHECKOUT_ALIAS}_generic_webhook_secret`;

/** `whsec_` + 32 random bytes (256 bits), base64url. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The site's generic webhook secret (docs/decisions.md §8): the HMAC key of section B's
 * `Checkout-Signature`. Created at first use (a read of `/webhook/status` or a delivery to
 * `/webhook/receive`; concurrent first uses agree through the option's unique name), sealed with
 * AES-256-GCM in the options table, shown by `GET /webhook/status` only as a mask. An admin
 * obtains it whole exactly once, from `POST /webhook/rotate-secret`, which replaces it.
 */
@Injectable()
export class GenericWebhookSecret {
  constructor(
    private readonly options: OptionsService,
    private readonly crypto: CryptoService,
  ) {}

  async get(): Promise<string> {
    await this.options.addIfAbsent(GENERIC_WEBHOOK_SECRET_OPTION, () => ({ sealed: this.crypto.encrypt(newSecret()) }));
    const secret = await this.options.getSecret(GENERIC_WEBHOOK_SECRET_OPTION);
    if (!secret) throw new UnavailableError('The webhook secret was removed while it was being read; please try again.');
    return secret;
  }

  async mask(): Promise<string> {
    return this.crypto.mask(await this.get());
  }

  /** A new secret replaces the old one at once (deliveries signed with the old one are refused from now on). */
  async rotate(): Promise<string> {
    const secret = newSecret();
    await this.options.setSecret(GENERIC_WEBHOOK_SECRET_OPTION, secret);
    return secret;
  }
}
