import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * What an account token is for: a set-password link (`reset` 1 hour, `invite` 7 days, `setup` 24
 * hours) or the second step of a two-factor sign-in (`two_factor`, 5 minutes).
 */
export type AccountTokenPurpose = 'reset' | 'invite' | 'setup' | 'two_factor';
export const SET_PASSWORD_PURPOSES: readonly AccountTokenPurpose[] = ['reset', 'invite', 'setup'];

/** A single-use account token: only its keyed hash is stored; the token itself is in a link or a sign-in answer once. */
@Entity({ name: 'checkout_account_tokens' })
export class AccountTokenEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'purpose', type: 'varchar', length: 16 })
  purpose: AccountTokenPurpose;

  /** A two-factor challenge: the application password the first step matched (null for the account password). */
  @Column({ name: 'application_password_id', type: 'integer', nullable: true })
  applicationPasswordId: number | null;

  /** Wrong codes tried against a two-factor challenge. */
  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'datetime', precision: 3, nullable: true })
  usedAt: Date | null;
}

/** A two-factor recovery code: its keyed hash, and when it was used (each works once). */
@Entity({ name: 'checkout_recovery_codes' })
export class RecoveryCodeEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'used_at', type: 'datetime', precision: 3, nullable: true })
  usedAt: Date | null;
}
