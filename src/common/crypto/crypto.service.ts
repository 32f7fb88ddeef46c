import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, ConfigError } from '../../config/index.js';
import { resolveMasterSecret } from './master-secret.js';
import { deriveKey, hmacSha256, maskSecret, open, safeEqual, seal } from './secret-box.js';

/** Sealed values whose plaintext is kept (a handful of secrets are read per request at most). */
const OPENED_MAX = 64;

/** The keys of one master secret: encryption at rest, one HMAC key per purpose (made on first use). */
class Keyring {
  readonly encryptionKey: Buffer;
  /** A public fingerprint of the master secret (HKDF output: tells nothing about it), stored beside hashes it keyed. */
  readonly keyId: string;
  private readonly hmacKeys = new Map<string, Buffer>();

  constructor(private readonly master: Buffer) {
    this.encryptionKey = deriveKey(master, 'encryption');
    this.keyId = deriveKey(master, 'key-id').subarray(0, 8).toString('hex');
  }

  hmac(purpose: string, data: string | Buffer): Buffer {
    let key = this.hmacKeys.get(purpose);
    if (!key) {
      key = deriveKey(this.master, `hmac:${purpose}`);
      this.hmacKeys.set(purpose, key);
    }
    return hmacSha256(key, data);
  }
}

/** A sealed value opened, and whether it was sealed under the current secret (else the previous one). */
export interface OpenedValue {
  plaintext: string;
  current: boolean;
}

/**
 * Keys derived once from the master secret: one for encryption at rest, one per HMAC purpose.
 *
 * During a rotation (CHECKOUT_SECRET_PREVIOUS set) everything is made with the current secret and
 * accepted under either: `decrypt` opens values of both, `hmacCandidates` gives the HMAC under each
 * for a verification or a look-up of a stored hash (current first).
 */
@Injectable()
export class CryptoService {
  private readonly current: Keyring;
  private readonly previous: Keyring | null;
  /**
   * Plaintexts of recently opened sealed values, keyed by the sealed text itself: the same sealed
   * text always opens to the same plaintext under this process's keys, so this can never answer a
   * stale value (a changed secret is a new sealed text; callers still read it from the database
   * each time). It spares the AES-256-GCM decryption of the webhook signing secret on every event.
   */
  private readonly opened = new Map<string, string>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const master = resolveMasterSecret(config.checkoutSecret, config.dataDir, { generate: !config.checkoutSecretPrevious });
    this.current = new Keyring(master);
    if (config.checkoutSecretPrevious) {
      const previous = Buffer.from(config.checkoutSecretPrevious, 'utf8');
      // app-config refuses an equal CHECKOUT_SECRET; this catches the key file holding the previous secret.
      if (previous.equals(master)) throw new ConfigError('CHECKOUT_SECRET_PREVIOUS', 'must differ from the current secret (the key file holds the same value)');
      this.previous = new Keyring(previous);
    } else {
      this.previous = null;
    }
  }

  /** A rotation is under way: CHECKOUT_SECRET_PREVIOUS is set. */
  get rotating(): boolean {
    return this.previous !== null;
  }

  /** The current secret's fingerprint (stored with application-password and recovery-code hashes). */
  get keyId(): string {
    return this.current.keyId;
  }

  encrypt(plaintext: string): string {
    return seal(this.current.encryptionKey, plaintext);
  }

  decrypt(sealed: string): string {
    let plaintext = this.opened.get(sealed);
    if (plaintext === undefined) {
      plaintext = this.openSealed(sealed).plaintext;
      if (this.opened.size >= OPENED_MAX) this.opened.clear();
      this.opened.set(sealed, plaintext);
    }
    return plaintext;
  }

  /** Opens a sealed value under the current secret, else the previous one; throws when neither opens it. */
  openSealed(sealed: string): OpenedValue {
    try {
      return { plaintext: open(this.current.encryptionKey, sealed), current: true };
    } catch (error) {
      if (!this.previous) throw error;
      return { plaintext: open(this.previous.encryptionKey, sealed), current: false };
    }
  }

  /** HMAC-SHA256 keyed for one purpose (application passwords, payment secrets, tokens...), under the current secret. */
  hmac(purpose: string, data: string | Buffer): Buffer {
    return this.current.hmac(purpose, data);
  }

  /** The HMAC under the current secret, then (during a rotation) under the previous one: what a verification accepts. */
  hmacCandidates(purpose: string, data: string | Buffer): Buffer[] {
    return this.previous ? [this.current.hmac(purpose, data), this.previous.hmac(purpose, data)] : [this.current.hmac(purpose, data)];
  }

  /** HMAC functions per purpose, current first, for code that verifies through a signer (tokens, states). */
  hmacSigners(purpose: string): Array<(data: string) => Buffer> {
    const keyrings = this.previous ? [this.current, this.previous] : [this.current];
    return keyrings.map((keyring) => (data: string) => keyring.hmac(purpose, data));
  }

  safeEqual(a: string | Buffer, b: string | Buffer): boolean {
    return safeEqual(a, b);
  }

  mask(secret: string): string {
    return maskSecret(secret);
  }
}
