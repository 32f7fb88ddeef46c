import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { CONSOLE_LOCALES, type ConsoleLocale } from '../../common/i18n/index.js';

export class SignInDto {
  /** The user's login */
  // class-validator reports the bottom-most failing check first: the type check goes last.
  @MaxLength(60)
  @IsNotEmpty()
  @IsString()
  login: string;

  /** The account password, or one of the user's application passwords (with or without its display spaces) */
  @MaxLength(1024)
  @IsNotEmpty()
  @IsString()
  password: string;
}

export class ConsoleUserDto {
  id: number;
  login: string;
  display_name: string;
  /** The user's role (`administrator`, `editor`, ...) */
  role: string;
  /**
   * The capabilities of that role, sorted. Every admin route needs `checkout_settings` and the finer
   * capability it names (docs/security.md, "Roles"; each operation's `x-required-capabilities`): a
   * console hides what the user may not do. A user without `checkout_settings` may sign in, but
   * every admin route answers 403 to them.
   * @example ["checkout_settings", "read_checkout_payments", "refund_checkout_payments", "view_checkout_dashboard"]
   */
  capabilities: string[];

  /**
   * The console language the user chose (PUT /auth/preferences), or null: the console follows the
   * browser's language (English when it speaks neither)
   */
  @ApiProperty({ enum: [...CONSOLE_LOCALES, null] as unknown as string[], nullable: true, type: String, example: 'de' })
  locale: ConsoleLocale | null;
}

export class ConsoleSessionDto {
  /**
   * Send it as the `X-WP-Nonce` header with every request of this session (or as `_wpnonce` in the
   * query of a GET a frame or link opens, where a route allows it). It is valid as long as the
   * session; keep it in memory only.
   */
  nonce: string;

  user: ConsoleUserDto;

  /**
   * True when the user has no account password yet (they signed in with an application password):
   * the console shows the set-password screen first (PUT /auth/password without `current_password`).
   */
  must_set_password: boolean;

  /**
   * When the session ends at the latest (sign-in + SESSION_TTL_SECONDS), ISO 8601 UTC
   * @example "2026-03-01T18:00:00.000Z"
   */
  expires_at: string;

  /** Seconds without a request after which the session ends sooner (SESSION_IDLE_TIMEOUT_SECONDS) */
  idle_timeout_seconds: number;
}
