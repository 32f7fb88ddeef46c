import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/index.js';
import { CryptoService } from '../../common/crypto/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { InstallationService, OptionsService } from '../settings/index.js';
import { openPayerLink, type PayerLinkClaims, sealPayerLink } from './payer-link-token.js';

/** The stored link version: part of every link's key, so moving it revokes every link issued before. */
export const PAYER_LINK_VERSION_OPTION = 'checkout_payer_link_version';
/** The HMAC purpose the link keys are derived under (docs/security.md). */
const KEY_PURPOSE = 'payer-manage-link';
/** A link shows receipts up to this age. */
export const PAYER_LINK_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** A link cancels a subscription or changes its card up to this age. */
export const PAYER_LINK_ACTION_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Clocks of several instances disagree a little: a link "issued" this far in the future is still taken. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Where the manage page is, below PUBLIC_BASE_URL. */
export const PAYER_MANAGE_PATH = '/pay/manage';

/**
 * The payer's self-service link (docs/security.md, "The payer's manage link"; docs/decisions.md §22):
 * `{PUBLIC_BASE_URL}/pay/manage/{token}`, bound to one lower-cased address and this installation.
 *
 * The token is sealed (AES-256-GCM) under a key derived from the installation's secret (an HMAC of
 * the CryptoService for the purpose `payer-manage-link`) over the stored link version and the
 * installation id. During a secret rotation it is made under the current secret and opened under
 * either, so a rotation keeps links valid until they expire; moving the version (`revoke`) voids
 * every link at once.
 */
@Injectable()
export class PayerLinks {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly crypto: CryptoService,
    private readonly options: OptionsService,
    private readonly installation: InstallationService,
    private readonly clock: Clock,
  ) {}

  /** `{PUBLIC_BASE_URL}/pay/manage/{token}` for `email`, issued now. */
  async manageUrl(email: string): Promise<string> {
    return `${this.config.publicBaseUrl}${PAYER_MANAGE_PATH}/${await this.issue(email)}`;
  }

  /** A fresh token for `email` (lower-cased), issued now. */
  async issue(email: string): Promise<string> {
    const [key] = await this.keys();
    return sealPayerLink(key, { email: email.trim().toLowerCase(), issuedAt: this.clock.now() });
  }

  /** The address and issue time of a token, or null when it is malformed, tampered, of another installation or version, or older than 30 days. */
  async verify(token: string): Promise<{ email: string; issuedAt: Date } | null> {
    if (typeof token !== 'string') return null;
    const now = this.clock.now().getTime();
    for (const key of await this.keys()) {
      const claims: PayerLinkClaims | null = openPayerLink(key, token);
      if (!claims) continue;
      const age = now - claims.issuedAt.getTime();
      if (age > PAYER_LINK_MAX_AGE_MS || age < -CLOCK_SKEW_MS) return null;
      return claims;
    }
    return null;
  }

  /** Whether a verified link is young enough to act (cancel, change a card). */
  canAct(claims: { issuedAt: Date }): boolean {
    return this.clock.now().getTime() - claims.issuedAt.getTime() <= PAYER_LINK_ACTION_MAX_AGE_MS;
  }

  /** The link version now in force. */
  async version(): Promise<number> {
    const stored = await this.options.get<unknown>(PAYER_LINK_VERSION_OPTION, 1);
    return typeof stored === 'number' && Number.isSafeInteger(stored) && stored >= 1 ? stored : 1;
  }

  /** Voids every link issued so far (the version moves); returns the new version. */
  async revokeAll(): Promise<number> {
    return this.options.change<unknown>(PAYER_LINK_VERSION_OPTION, 1, (current) => (typeof current === 'number' && Number.isSafeInteger(current) && current >= 1 ? current : 1) + 1) as Promise<number>;
  }

  /** The link keys: under the current secret first, then (during a rotation) the previous one. */
  private async keys(): Promise<Buffer[]> {
    const binding = `v${await this.version()}:${this.installation.id()}`;
    return this.crypto.hmacSigners(KEY_PURPOSE).map((sign) => sign(binding));
  }
}
