import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'user_login', type: 'varchar', length: 60 })
  login: string;

  @Column({ name: 'user_email', type: 'varchar', length: 100 })
  email: string;

  @Column({ name: 'display_name', type: 'varchar', length: 250 })
  displayName: string;

  @Column({ name: 'role', type: 'varchar', length: 50 })
  role: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  /** The scrypt hash of the account password with its parameters (account-password.ts), or null while none is set. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ name: 'password_changed_at', type: 'datetime', precision: 3, nullable: true })
  passwordChangedAt: Date | null;

  /** The TOTP secret (base32), sealed with the installation's key; null while two-factor sign-in is off. */
  @Column({ name: 'two_factor_secret', type: 'text', nullable: true })
  twoFactorSecret: string | null;

  /** A secret being enrolled (shown once, sealed), until a code confirms it. */
  @Column({ name: 'two_factor_pending_secret', type: 'text', nullable: true })
  twoFactorPendingSecret: string | null;

  @Column({ name: 'two_factor_enabled_at', type: 'datetime', precision: 3, nullable: true })
  twoFactorEnabledAt: Date | null;

  /** The last TOTP time step accepted: a code is never accepted twice. */
  @Column({ name: 'two_factor_last_step', type: 'integer', nullable: true })
  twoFactorLastStep: number | null;
  /** The last console sign-in (null: never signed in to the console) */
  @Column({ name: 'last_sign_in_at', type: 'datetime', precision: 3, nullable: true })
  lastSignInAt: Date | null;
}
