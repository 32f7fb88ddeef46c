import { Entity } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, IntegerColumn, TextColumn, VarcharColumn } from '../../database/index.js';

@Entity({ name: 'users' })
export class UserEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('user_login', 60)
  login: string;

  @VarcharColumn('user_email', 100)
  email: string;

  @VarcharColumn('display_name', 250)
  displayName: string;

  @VarcharColumn('role', 50)
  role: string;

  @CreatedAtColumn()
  createdAt: Date;

  /** The scrypt hash of the account password with its parameters (account-password.ts), or null while none is set. */
  @VarcharColumn('password_hash', 255, { nullable: true })
  passwordHash: string | null;

  @DatetimeColumn('password_changed_at', { nullable: true })
  passwordChangedAt: Date | null;

  /** The TOTP secret (base32), sealed with the installation's key; null while two-factor sign-in is off. */
  @TextColumn('two_factor_secret', { nullable: true })
  twoFactorSecret: string | null;

  /** A secret being enrolled (shown once, sealed), until a code confirms it. */
  @TextColumn('two_factor_pending_secret', { nullable: true })
  twoFactorPendingSecret: string | null;

  @DatetimeColumn('two_factor_enabled_at', { nullable: true })
  twoFactorEnabledAt: Date | null;

  /** The last TOTP time step accepted: a code is never accepted twice. */
  @IntegerColumn('two_factor_last_step', { nullable: true })
  twoFactorLastStep: number | null;
  /** The last console sign-in (null: never signed in to the console) */
  @DatetimeColumn('last_sign_in_at', { nullable: true })
  lastSignInAt: Date | null;

  /** The console language this user chose (`en`, `de`: CONSOLE_LOCALES), or null to follow the browser's language */
  @VarcharColumn('console_locale', 10, { nullable: true })
  consoleLocale: string | null;
}
