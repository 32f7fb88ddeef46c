import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { CONSOLE_LOCALES, type ConsoleLocale } from '../../../common/i18n/index.js';
import { IsOmittable } from '../../../common/validation/index.js';

/** A token of a set-password link: 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export class TwoFactorSignInDto {
  /** The `data.challenge` of the 401 `checkout_two_factor_required` answer (valid 5 minutes) */
  @Matches(TOKEN, { message: 'challenge must be the challenge of the sign-in answer' })
  @IsString()
  challenge: string;

  /** The current 6-digit code of the authenticator app, or one of the recovery codes (`xxxxx-xxxxx`, each works once) */
  @MaxLength(32)
  @IsNotEmpty()
  @IsString()
  code: string;
}

export class PasswordResetRequestDto {
  /** The login or the email address of the account */
  @MaxLength(100)
  @IsNotEmpty()
  @IsString()
  login: string;
}

export class SetPasswordTokenDto {
  /** The token of the link (after `#token=`) */
  @Matches(TOKEN, { message: 'token must be the token of a set-password link' })
  @IsString()
  token: string;
}

export class SetPasswordDto extends SetPasswordTokenDto {
  /** The new account password: 12 to 256 characters, any characters (no composition rules) */
  @MaxLength(1024)
  @IsString()
  password: string;

  /** Your name as teammates see it (a setup or invitation link only; a reset ignores it) */
  @MaxLength(250)
  @IsNotEmpty()
  @IsString()
  @IsOptional()
  display_name?: string;

  /** Where password-reset links go (a setup or invitation link only; a reset ignores it) */
  @MaxLength(100)
  @IsEmail()
  @IsOptional()
  email?: string;
}

export class ChangePasswordDto {
  /** The current account password (leave it out when you have none yet: you signed in with an application password) */
  @MaxLength(1024)
  @IsString()
  @IsOptional()
  current_password?: string;

  /** The new account password: 12 to 256 characters, any characters (no composition rules) */
  @MaxLength(1024)
  @IsString()
  new_password: string;
}

export class SetPasswordTokenInfoDto {
  /** What the link is for: `setup` (the first administrator), `invite` (a new teammate), `reset` (a forgotten password) */
  // Declared: the plugin orders an inferred union's members differently under nest build and ts-jest.
  @ApiProperty({ enum: ['setup', 'invite', 'reset'] })
  purpose: 'setup' | 'invite' | 'reset';
  login: string;
  display_name: string;
  /**
   * When the link stops working, ISO 8601 UTC
   * @example "2026-03-01T18:00:00.000Z"
   */
  expires_at: string;
}

export class PasswordSetDto {
  success: boolean;
  message: string;
  /** The account's login, to sign in with the new password */
  login: string;
}

export class TwoFactorStatusDto {
  enabled: boolean;
  /** When it was turned on, ISO 8601 UTC; null while off */
  enabled_at: string | null;
  /** Unused recovery codes (0 while off) */
  recovery_codes_left: number;
}

export class PasswordConfirmationDto {
  /** Your account password */
  @MaxLength(1024)
  @IsNotEmpty()
  @IsString()
  password: string;
}

export class TwoFactorEnrolmentDto {
  /** The new secret (base32), shown this once: type it into the authenticator app, or use `otpauth_uri` */
  secret: string;
  /** `otpauth://totp/…`: what an authenticator app reads from a QR code */
  otpauth_uri: string;
}

export class TwoFactorCodeDto {
  /** The current 6-digit code of the authenticator app */
  @MaxLength(32)
  @IsNotEmpty()
  @IsString()
  code: string;
}

export class TwoFactorDisableDto extends PasswordConfirmationDto {
  /** The current 6-digit code of the authenticator app, or a recovery code */
  @MaxLength(32)
  @IsNotEmpty()
  @IsString()
  code: string;
}

/** Either your account password or a current code of your authenticator app (not a recovery code). */
export class RecoveryCodesRenewalDto {
  /** Your account password */
  @IsOmittable()
  @MaxLength(1024)
  @IsNotEmpty()
  @IsString()
  password?: string;

  /** The current 6-digit code of the authenticator app */
  @IsOmittable()
  @MaxLength(32)
  @IsNotEmpty()
  @IsString()
  code?: string;
}

export class RecoveryCodesDto {
  /** Ten recovery codes, shown this once: each signs in once in place of a code when the phone is lost */
  recovery_codes: string[];
}

export class AccountPreferencesDto {
  /**
   * The console language of your account (`en`, `de`), or null to follow the browser's language.
   * It follows you to every browser you sign in from.
   */
  @ApiProperty({ enum: [...CONSOLE_LOCALES, null] as unknown as string[], nullable: true, type: String, example: 'de' })
  @ValidateIf((body: AccountPreferencesDto) => body.locale !== null)
  @IsIn(CONSOLE_LOCALES, { message: `locale must be one of ${CONSOLE_LOCALES.join(', ')}, or null` })
  locale: ConsoleLocale | null;
}
