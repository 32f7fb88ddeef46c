import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { resolveMasterSecret } from './master-secret.js';
import { deriveKey, hmacSha256, maskSecret, open, safeEqual, seal } from './secret-box.js';

/** Keys derived once from the master secret: one for encryption at rest, one per HMAC purpose. */
@Injectable()
export class CryptoService {
  private readonly master: Buffer;
  private readonly encryptionKey: Buffer;
  private readonly hmacKeys = new Map<string, Buffer>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.master = resolveMasterSecret(config.checkoutSecret, config.dataDir);
    this.encryptionKey = deriveKey(this.master, 'encryption');
  }

  encrypt(plaintext: string): string {
    return seal(this.encryptionKey, plaintext);
  }

  decrypt(sealed: string): string {
    return open(this.encryptionKey, sealed);
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
