import { Entity } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, IntegerColumn, VarcharColumn } from '../../../database/index.js';

/**
 * What an account token is for: a set-password link (`reset` 1 hour, `invite` 7 days, `setup` 24
 * hours) or the second step of a two-factor sign-in (`two_factor`, 5 minutes).
 */
export type AccountTokenPurpose = 'reset' | 'invite' | 'setup' | 'two_factor';
export const SET_PASSWORD_PURPOSES: readonly AccountTokenPurpose[] = ['reset', 'invite', 'setup'];

/** A single-use account token: only its keyed hash is stored; the token itself is in a link or a sign-in answer once. */
@Entity({ name: 'checkout_account_tokens' })
export class AccountTokenEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('token_hash', 64)
  tokenHash: string;

  @IntegerColumn('user_id')
  userId: number;

  @VarcharColumn('purpose', 16)
  purpose: AccountTokenPurpose;

  /** A two-factor challenge: the application password the first step matched (null for the account password). */
  @IntegerColumn('application_password_id', { nullable: true })
  applicationPasswordId: number | null;

  /** Wrong codes tried against a two-factor challenge. */
  @IntegerColumn('attempts', { default: 0 })
  attempts: number;

  @CreatedAtColumn()
  createdAt: Date;

  @DatetimeColumn('expires_at')
  expiresAt: Date;

  @DatetimeColumn('used_at', { nullable: true })
  usedAt: Date | null;
}

/** A two-factor recovery code: its keyed hash, and when it was used (each works once). */
@Entity({ name: 'checkout_recovery_codes' })
export class RecoveryCodeEntity {
  @IdColumn()
  id: number;

  @IntegerColumn('user_id')
  userId: number;

  @VarcharColumn('code_hash', 64)
  codeHash: string;

  /** The fingerprint of the secret that keyed the hash (CryptoService.keyId); null until the first boot after migration 1764118000000. */
  @VarcharColumn('secret_key_id', 16, { nullable: true })
  secretKeyId: string | null;

  @CreatedAtColumn()
  createdAt: Date;

  @DatetimeColumn('used_at', { nullable: true })
  usedAt: Date | null;
}
