import { Inject, Injectable } from '@nestjs/common';
import { join } from 'node:path';
import { CryptoService } from '../../common/crypto/index.js';
import { BootError } from '../../common/errors/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { OptionsService } from './options.service.js';

export const SECRET_CANARY_OPTION = 'checkout_secret_canary';
const CANARY_TEXT = 'checkout secret canary v1';
const CANARY_HMAC_PURPOSE = 'secret-canary';

interface StoredCanary {
  /** CANARY_TEXT sealed with the encryption key (AES-256-GCM), as every stored secret is */
  sealed: string;
  /** HMAC of CANARY_TEXT with a purpose key derived like the password and payment-secret keys */
  hmac: string;
}

/** The master secret differs from the one the database was set up with. */
export class SecretMismatchError extends BootError {}

/**
 * Notices a changed CHECKOUT_SECRET or a lost `secret.key` at boot instead of through failing
 * logins and 500s: the first boot stores a canary sealed and MACed with keys derived from the
 * master secret; every boot opens it and stops the service, naming the variable or key file (never
 * a value), when it does not open.
 *
 * A database from before the canary gets one on its next boot; if it already holds a sealed
 * secret that the current key cannot open, that boot stops the same way instead of blessing the
 * wrong key.
 */
@Injectable()
export class SecretCanary {
  constructor(
    private readonly options: OptionsService,
    private readonly crypto: CryptoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async verifyOrStore(): Promise<void> {
    if (!(await this.options.get<StoredCanary | null>(SECRET_CANARY_OPTION, null))) {
      const sealed = await this.options.anySealedValue();
      if (sealed !== null && !this.opens(sealed)) throw this.mismatch();
    }
    const canary = await this.options.addIfAbsent<StoredCanary>(SECRET_CANARY_OPTION, () => this.freshCanary());
    const sealedOk = typeof canary?.sealed === 'string' && this.opens(canary.sealed, CANARY_TEXT);
    const macOk = typeof canary?.hmac === 'string' && this.macs().some((mac) => this.crypto.safeEqual(canary.hmac, mac));
    if (!sealedOk || !macOk) throw this.mismatch();
  }

  private opens(sealed: string, expected?: string): boolean {
    try {
      const plain = this.crypto.decrypt(sealed);
      return expected === undefined || plain === expected;
    } catch {
      return false;
    }
  }

  private mac(): string {
    return this.crypto.hmac(CANARY_HMAC_PURPOSE, CANARY_TEXT).toString('base64url');
  }

  /** The canary's MAC under the current secret, and under CHECKOUT_SECRET_PREVIOUS during a rotation. */
  private macs(): string[] {
    return this.crypto.hmacCandidates(CANARY_HMAC_PURPOSE, CANARY_TEXT).map((mac) => mac.toString('base64url'));
  }

  /** A canary sealed and MACed under the current secret (`rotate-secret` writes it in its transaction). */
  freshCanary(): StoredCanary {
    return { sealed: this.crypto.encrypt(CANARY_TEXT), hmac: this.mac() };
  }

  private mismatch(): SecretMismatchError {
    const keyFile = join(this.config.dataDir, 'secret.key');
    const source = this.config.checkoutSecret
      ? 'CHECKOUT_SECRET is not the secret this database was set up with'
      : `the key file ${keyFile} (used because CHECKOUT_SECRET is not set) is not the key this database was set up with`;
    const message =
      `Refusing to start: ${source}. With it, stored gateway secrets cannot be opened and every ` +
      'application password and payment reference would fail. Restore the original ' +
      (this.config.checkoutSecret ? 'CHECKOUT_SECRET' : `${keyFile} (or set CHECKOUT_SECRET to the original secret)`) +
      ' (during a rotation: set CHECKOUT_SECRET_PREVIOUS back until `npm run cli -- rotate-secret` has run),' +
      ' or see docs/security.md ("Lost or changed master secret") to start over deliberately.';
    return new SecretMismatchError(message);
  }
}
