import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IsOmittable, IsPlainText } from '../../common/validation/index.js';

/** The roles a teammate may be given (docs/security.md, "Roles"); `author` and `subscriber` stay CLI-only and reach no admin route. */
export const CONSOLE_ROLES = ['administrator', 'editor', 'support', 'viewer'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

// Each field's rules once, for both bodies (inheriting would carry the update's `IsOmittable` into
// the creation's required fields). Applied in this order, as stacked decorators are bottom-up: the
// type check runs first and class-validator reports the last failure.
const loginRules = () => applyDecorators(IsString(), MinLength(1), MaxLength(60), Matches(/^[A-Za-z0-9_.@-]+$/, { message: 'login may hold letters, digits and _ . @ - only' }));
const emailRules = () => applyDecorators(IsString(), MaxLength(100), IsEmail({}, { message: 'email must be an email address' }));
const displayNameRules = () => applyDecorators(IsString(), MinLength(1), MaxLength(250), IsPlainText());
const LOGIN = { type: String, minLength: 1, maxLength: 60, pattern: '^[A-Za-z0-9_.@-]+$', description: 'What the user signs in with: letters, digits and `_ . @ -`, unique', example: 'sam' };
const EMAIL = { type: String, format: 'email', maxLength: 100, description: 'Where invitations (and password resets) are sent; unique', example: 'sam@shop.example' };
const DISPLAY_NAME = { type: String, minLength: 1, maxLength: 250, description: 'The name the console shows (the login when left out at creation)', example: 'Sam Rivera' };

/** PATCH /administration/users/{id}: the members given change. */
export class UpdateUserDto {
  @ApiPropertyOptional(LOGIN)
  @IsOmittable()
  @loginRules()
  login?: string;

  @ApiPropertyOptional(EMAIL)
  @IsOmittable()
  @emailRules()
  email?: string;

  @ApiPropertyOptional(DISPLAY_NAME)
  @IsOmittable()
  @displayNameRules()
  display_name?: string;

  @ApiPropertyOptional({ enum: CONSOLE_ROLES, description: 'A changed role ends the user’s console sessions and revokes their application passwords at once' })
  @IsOmittable()
  @IsIn(CONSOLE_ROLES)
  role?: ConsoleRole;
}

/** POST /administration/users: the new teammate gets an invitation email with a set-password link. */
export class CreateUserDto {
  @ApiProperty(LOGIN)
  @loginRules()
  login: string;

  @ApiProperty({ ...EMAIL, description: 'Where the invitation is sent; unique' })
  @emailRules()
  email: string;

  @ApiPropertyOptional(DISPLAY_NAME)
  @IsOmittable()
  @displayNameRules()
  display_name?: string;

  @ApiProperty({ enum: CONSOLE_ROLES, description: 'What the user may do (docs/security.md, "Roles")' })
  @IsIn(CONSOLE_ROLES)
  role: ConsoleRole;
}

export class UserInvitationDto {
  @ApiProperty({ enum: ['pending', 'expired'], description: '`pending` until it is used or ends; `expired` after 7 days unused (send a new one)' })
  status: 'pending' | 'expired';

  @ApiProperty({ type: String, format: 'date-time', description: 'When the set-password link stops working, ISO 8601 UTC' })
  expires_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the invitation email left (null: still queued, or its sending failed)' })
  sent_at: string | null;
}

export class TeamUserDto {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty()
  login: string;

  @ApiProperty()
  email: string;

  @ApiProperty()
  display_name: string;

  /** A console role, or `author`/`subscriber` for users the CLI made (they reach no admin route) */
  @ApiProperty({ type: String, example: 'support' })
  role: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The last console sign-in (null: never)' })
  last_sign_in_at: string | null;

  @ApiProperty({ type: UserInvitationDto, nullable: true, description: 'The invitation not used yet, or null (none, or used)' })
  invitation: UserInvitationDto | null;
}

export class TeamUserDeletedDto {
  @ApiProperty({ enum: [true] })
  deleted: true;

  @ApiProperty({ type: TeamUserDto })
  previous: TeamUserDto;
}

export class RoleDto {
  @ApiProperty({ example: 'support' })
  name: string;

  @ApiProperty({ example: 'Support' })
  display_name: string;

  @ApiProperty({ type: [String], description: 'The role’s capabilities, sorted', example: ['checkout_settings', 'read_checkout_payments', 'refund_checkout_payments'] })
  capabilities: string[];

  @ApiProperty({ description: 'Whether a teammate may be given this role through the API (the console roles)' })
  assignable: boolean;
}

/** POST /administration/users/{id}/application-passwords */
export class CreateApplicationPasswordDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 100, description: 'What it is for, e.g. the script or machine that uses it', example: 'Accounting export' })
  @IsPlainText()
  @MaxLength(100)
  @MinLength(1)
  @IsString()
  name: string;
}

export class ApplicationPasswordDto {
  @ApiProperty({ format: 'uuid' })
  uuid: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last used (to the hour), or null' })
  last_used_at: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The address it was last used from, or null' })
  last_ip: string | null;
}

export class NewApplicationPasswordDto extends ApplicationPasswordDto {
  @ApiProperty({ description: 'The password, shown this once: only its keyed hash is stored', example: 'abcd efgh ijkl mnop qrst uvwx' })
  password: string;
}

export class ApplicationPasswordRevokedDto {
  @ApiProperty({ enum: [true] })
  deleted: true;

  @ApiProperty({ type: ApplicationPasswordDto })
  previous: ApplicationPasswordDto;
}
