import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { resolveMasterSecret } from './master-secret.js';
import { deriveKey, hmacSha256, maskSecret, open, safeEqual, seal } from './secret-box.js';

/** Sealed values whose plaintext is kept (a handful of secrets are read per request at most). */
const OPENED_MAX = 64;

/** Keys derived once from the master secret: one for encryption at rest, one per HMAC purpose. */
@Injectable()
export class CryptoService {
  private readonly master: Buffer;
  private readonly encryptionKey: Buffer;
  private readonly hmacKeys = new Map<string, Buffer>();
  /**
   * Plaintexts of recently opened sealed values, keyed by the sealed text itself: the same sealed
   * text always opens to the same plaintext under this process's key, so this can never answer a
   * stale value (a changed secret is a new sealed text; callers still read it from the database
   * each time). It spares the AES-256-GCM decryption of the webhook signing secret on every event.
   */
  private readonly opened = new Map<string, string>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.master = resolveMasterSecret(config.checkoutSecret, config.dataDir);
    this.encryptionKey = deriveKey(this.master, 'encryption');
  }

  encrypt(plaintext: string): string {
    return seal(this.encryptionKey, plaintext);
  }

  decrypt(sealed: string): string {
    let plaintext = this.opened.get(sealed);
    if (plaintext === undefined) {
      plaintext = open(this.encryptionKey, sealed);
      if (this.opened.size >= OPENED_MAX) this.opened.clear();
      this.opened.set(sealed, plaintext);
    }
    return plaintext;
  }

  /** HMAC-SHA256 keyed for one purpose (application passwords, payment secrets, tokens...). */
  hmac(purpose: string, data: string | Buffer): Buffer {
    let key = this.hmacKeys.get(purpose);
    if (!key) {
      key = deriveKey(this.master, `hmac:${purpose}`);
      this.hmacKeys.set(purpose, key);
    }
    return hmacSha256(key, data);
  }

  safeEqual(a: string | Buffer, b: string | Buffer): boolean {
    return safeEqual(a, b);
  }

  mask(secret: string): string {
    return maskSecret(secret);
  }
}
