import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { COOKIE_AUTH_SCHEME, ConsoleSessionRoute, NONCE_AUTH_SCHEME } from '../../../common/auth/index.js';
import { ConflictError, InvalidParamsError } from '../../../common/errors/index.js';
import { AcknowledgementDto, ApiErrorResponses } from '../../../common/openapi/index.js';
import { RateLimit } from '../../../common/rate-limit/index.js';
import { nonceHeader, privateAnswer } from '../console-session.controller.js';
import { ConsoleSessionService } from '../console-session.service.js';
import { ApplicationPasswordNotFoundError } from '../identity.errors.js';
import { IdentityService } from '../identity.service.js';
import { ApplicationPasswordDto, ApplicationPasswordRevokedDto } from '../team.dto.js';
import { PasswordCheck } from '../password-check.js';
import type { UserEntity } from '../user.entity.js';
import {
  AccountPreferencesDto,
  ChangePasswordDto,
  PasswordConfirmationDto,
  PasswordResetRequestDto,
  PasswordSetDto,
  RecoveryCodesDto,
  RecoveryCodesRenewalDto,
  SetPasswordDto,
  SetPasswordTokenDto,
  SetPasswordTokenInfoDto,
  TwoFactorCodeDto,
  TwoFactorDisableDto,
  TwoFactorEnrolmentDto,
  TwoFactorStatusDto,
} from './account.dto.js';
import { AccountService } from './account.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SESSION = { [COOKIE_AUTH_SCHEME]: [], [NONCE_AUTH_SCHEME]: [] };
const RESET_ANSWER = 'If an account with that login or email address exists, we have emailed it a link to choose a new password. The link works for one hour.';

/**
 * The account routes of the admin console (docs/security.md "Accounts"): a forgotten password, the
 * set-password links (reset, invitation, first setup), changing the password and two-factor
 * sign-in. Same-origin browser requests only (ConsoleSessionRoute), never CORS. The routes without
 * a session are rate limited per client (`account_recovery`); those of a signed-in user need the
 * session cookie and its nonce, and check passwords and codes under the failed-login limit.
 */
@ApiTags('Sign-in')
@Controller('auth')
export class AccountController {
  constructor(
    private readonly accounts: AccountService,
    private readonly sessions: ConsoleSessionService,
    private readonly passwordCheck: PasswordCheck,
    private readonly identity: IdentityService,
  ) {}

  @Post('password-reset')
  @ApiBody({ type: PasswordResetRequestDto, examples: { login: { summary: 'By login (or an email address)', value: { login: 'admin' } } } })
  @HttpCode(202)
  @ConsoleSessionRoute()
  @RateLimit('account_recovery')
  @ApiSecurity({})
  @ApiAcceptedResponse({ type: AcknowledgementDto, description: 'The same answer whether or not the account exists' })
  @ApiErrorResponses(400, 429)
  @ApiOperation({
    operationId: 'authRequestPasswordReset',
    summary: 'Forgotten password: email a link to choose a new one',
    description:
      'For the account of that login (or else the accounts of that email address) a link to the set-password screen is emailed ' +
      'through the outbox; it works once, for one hour. The answer is the same whether or not such an account exists. At most ' +
      `3 emails per account and hour; requests are limited per client (RATE_LIMIT_ACCOUNT_RECOVERY).`,
  })
  async requestReset(@Body() body: PasswordResetRequestDto, @Res({ passthrough: true }) res: Response): Promise<AcknowledgementDto> {
    privateAnswer(res);
    await this.accounts.requestPasswordReset(body.login.trim());
    return { success: true, message: RESET_ANSWER };
  }

  @Post('set-password/check')
  @ApiBody({ type: SetPasswordTokenDto, examples: { link: { summary: 'The token of a set-password link (after #token=)', value: { token: 'Kq3v9Zp0yXb7LmN2sR5tW8uE1oI4aD6fG0hJ2kL9mN_' } } } })
  @HttpCode(200)
  @ConsoleSessionRoute()
  @RateLimit('account_recovery')
  @ApiSecurity({})
  @ApiOkResponse({ type: SetPasswordTokenInfoDto, description: 'The link is good: what it is for and whose account it is' })
  @ApiErrorResponses(400, 429)
  @ApiOperation({
    operationId: 'authCheckSetPasswordLink',
    summary: 'What a set-password link is for (before the screen asks for a password)',
    description:
      'Answers the purpose (`setup`, `invite`, `reset`), login and name of a live link, or 400 `checkout_token_invalid` for a ' +
      'link that is unknown, used, expired, or (a setup link) no longer needed. Uses nothing up.',
  })
  async checkLink(@Body() body: SetPasswordTokenDto, @Res({ passthrough: true }) res: Response): Promise<SetPasswordTokenInfoDto> {
    privateAnswer(res);
    return this.accounts.describeSetPasswordToken(body.token);
  }

  @Post('set-password')
  @ApiBody({ type: SetPasswordDto, examples: { invitation: { summary: 'Choose a password from a link', value: { token: 'Kq3v9Zp0yXb7LmN2sR5tW8uE1oI4aD6fG0hJ2kL9mN_', password: 'a long passphrase of mine', display_name: 'Alex Merchant' } } } })
  @HttpCode(200)
  @ConsoleSessionRoute()
  @RateLimit('account_recovery')
  @ApiSecurity({})
  @ApiOkResponse({ type: PasswordSetDto, description: 'The password is set: sign in with the login and it' })
  @ApiErrorResponses(400, 429)
  @ApiOperation({
    operationId: 'authSetPassword',
    summary: 'Set the account password with a set-password link (setup, invitation or reset)',
    description:
      'Sets the account password (12 to 256 characters, no composition rules) of the link\'s account; a setup or invitation link ' +
      'may also set `display_name` and `email`. The link is used up, with every other set-password link of the account, and ' +
      'every session of the account ends. 400 `checkout_token_invalid` for a link that is unknown, used or expired (a setup ' +
      'link also once any administrator has an account password); 400 `rest_invalid_param` for a password of the wrong length.',
  })
  async setPassword(@Body() body: SetPasswordDto, @Res({ passthrough: true }) res: Response): Promise<PasswordSetDto> {
    privateAnswer(res);
    const { login } = await this.accounts.setPasswordWithToken(body.token, body.password, { displayName: body.display_name?.trim(), email: body.email });
    return { success: true, message: 'Your password is set. Sign in with it.', login };
  }

  @Put('password')
  @ApiBody({ type: ChangePasswordDto, examples: { change: { summary: 'Change the account password', value: { current_password: 'correct horse battery staple', new_password: 'a new long passphrase' } } } })
  @ConsoleSessionRoute()
  @ApiSecurity(SESSION)
  @ApiOkResponse({ type: AcknowledgementDto, description: 'Changed; your other sessions have ended' })
  @ApiErrorResponses(400, 401, 429)
  @ApiOperation({
    operationId: 'authChangePassword',
    summary: 'Change your account password (or set your first one)',
    description:
      'Needs the session cookie and its nonce, and `current_password` when you have an account password (checked under the ' +
      'failed-login limit; a wrong one is 400 `rest_invalid_param`). A user who signed in with an application password and ' +
      'has none sets their first one here (`must_set_password` of the session). Every other session of yours ends.',
  })
  async changePassword(@Body() body: ChangePasswordDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AcknowledgementDto> {
    privateAnswer(res);
    const { session, user } = await this.signedIn(req);
    if (user.passwordHash) {
      if (body.current_password === undefined) throw new InvalidParamsError({ current_password: 'current_password is required' }, 'rest_missing_callback_param');
      if (!(await this.passwordCheck.confirmPassword(user, body.current_password, req.ip))) {
        throw new InvalidParamsError({ current_password: 'current_password is not your current password' });
      }
    }
    await this.accounts.changePassword(user, body.new_password, session.id);
    return { success: true, message: 'Your password is changed. Your other sessions have ended.' };
  }

  @Put('preferences')
  @ApiBody({ type: AccountPreferencesDto, examples: { german: { summary: 'Read the console in German', value: { locale: 'de' } }, browser: { summary: "Follow the browser's language", value: { locale: null } } } })
  @ConsoleSessionRoute()
  @ApiSecurity(SESSION)
  @ApiOkResponse({ type: AccountPreferencesDto, description: 'Saved: the session answers it as `user.locale` from now on' })
  @ApiErrorResponses(400, 401)
  @ApiOperation({
    operationId: 'authSetPreferences',
    summary: 'Your console preferences: the language the console speaks to you',
    description:
      'Needs the session cookie and its nonce. `locale` is one of the console\'s languages (`en`, `de`) or null to follow the ' +
      "browser's language; any role may set their own. GET /auth/session answers it as `user.locale`, so it follows the user " +
      'to every browser. 400 `rest_invalid_param` for another language.',
  })
  async setPreferences(@Body() body: AccountPreferencesDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AccountPreferencesDto> {
    privateAnswer(res);
    const { user } = await this.signedIn(req);
    return this.accounts.setConsoleLocale(user, body.locale);
  }

  @Get('two-factor')
  @ConsoleSessionRoute()
  @ApiSecurity(SESSION)
  @ApiOkResponse({ type: TwoFactorStatusDto })
  @ApiErrorResponses(401)
  @ApiOperation({
    operationId: 'authTwoFactorStatus',
    summary: 'Whether two-factor sign-in is on for you, and your recovery codes left',
    description: 'Needs the session cookie and its nonce. Answers no secret: the TOTP secret is shown only once, at enrolment.',
  })
  async twoFactorStatus(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<TwoFactorStatusDto> {
    privateAnswer(res);
    const { user } = await this.signedIn(req);
    return this.accounts.twoFactorStatus(user);
  }

  @Post('two-factor/enrolment')
  @ApiBody({ type: PasswordConfirmationDto, examples: { start: { summary: 'Confirm with the account password', value: { password: 'correct horse battery staple' } } } })
  @HttpCode(201)
  @ConsoleSessionRoute()
  @ApiSecurity(SESSION)
  @ApiCreatedResponse({ type: TwoFactorEnrolmentDto, description: 'A new secret, shown this once; not active until confirmed' })
  @ApiErrorResponses(400, 401, 409, 429)
  @ApiOperation({
    operationId: 'authStartTwoFactor',
    summary: 'Start turning on two-factor sign-in: a new authenticator secret',
    description:
      'Needs your account password (400 `rest_invalid_param` when wrong, counted as a failed login; 409 `checkout_invalid_state` ' +
      'without an account password or when two-factor is already on). Answers a new TOTP secret (RFC 6238: SHA-1, 6 digits, ' +
      '30 s) and its `otpauth://` URI, shown this once and stored sealed; two-factor is on once POST /auth/two-factor/enrolment/confirm ' +
      'gets a code of it.',
  })
  async startTwoFactor(@Body() body: PasswordConfirmationDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<TwoFactorEnrolmentDto> {
    privateAnswer(res);
    const { user } = await this.signedIn(req);
    await this.requirePassword(user, body.password, req.ip);
    return this.accounts.startTwoFactor(user);
  }

  @Post('two-factor/enrolment/confirm')
  @ApiBody({ type: TwoFactorCodeDto, examples: { code: { summary: 'The current code of the authenticator app', value: { code: '123456' } } } })
  @HttpCode(200)
  @ConsoleSessionRoute()
  @ApiSecurity(SESSION)
  @ApiOkResponse({ type: RecoveryCodesDto, description: 'Two-factor sign-in is on; the recovery codes, shown this once' })
  @ApiErrorResponses(400, 401, 409)
  @ApiOperation({
    operationId: 'authConfirmTwoFactor',
    summary: 'Turn on two-factor sign-in with a code of the new secret',
    description:
      'A current code of the secret POST /auth/two-factor/enrolment gave (400 `rest_invalid_param` when it does not match) turns ' +
      'two-factor sign-in on and answers ten recovery codes, shown this once and stored hashed; each signs in once instead of a code.',
  })
  async confirmTwoFactor(@Body() body: TwoFactorCodeDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<RecoveryCodesDto> {
    privateAnswer(res);
    const { user } = await this.signedIn(req);
    return { recovery_codes: await this.accounts.confirmTwoFactor(user, body.code) };
  }

  @Post('two-factor/recovery-codes')
  @ApiBody({
    type: RecoveryCodesRenewalDto,
    examples: {
      password: { summary: 'Confirm with the account password', value: { password: 'correct horse battery staple' } },
      code: { summary: 'Confirm with a current code of the app', value: { code: '123456' } },
    },
  })
  @HttpCode(201)
  @ConsoleSessionRoute()
  @ApiSecurity(SESSION)
  @ApiCreatedResponse({ type: RecoveryCodesDto, description: 'Ten new recovery codes, shown this once; the old ones no longer work' })
  @ApiErrorResponses(400, 401, 409, 429)
  @ApiOperation({
    operationId: 'authRenewRecoveryCodes',
    summary: 'Make new recovery codes (the old ones stop working)',
    description:
      'Needs the session cookie and its nonce, and either your account password or a current code of your authenticator app ' +
      '(a recovery code is not accepted): exactly one of them, else 400 `rest_invalid_param`; a wrong one is 400 and counts as a ' +
      'failed login. 409 `checkout_invalid_state` when two-factor sign-in is off. Every earlier recovery code, used or not, stops ' +
      'working; ten new ones are answered once and stored hashed.',
  })
  async renewRecoveryCodes(@Body() body: RecoveryCodesRenewalDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<RecoveryCodesDto> {
    privateAnswer(res);
    const { user } = await this.signedIn(req);
    if ((body.password === undefined) === (body.code === undefined)) {
      throw new InvalidParamsError({ password: 'send either password or code', code: 'send either password or code' });
    }
    if (!user.twoFactorEnabledAt) throw new InvalidStateError('Two-factor sign-in is off: there are no recovery codes to renew.');
    if (body.password !== undefined) {
      await this.requirePassword(user, body.password, req.ip);
    } else {
      const codeOk = await this.passwordCheck.limited(req.ip, async () => ((await this.accounts.checkTotp(user, body.code!)) ? true : null));
      if (!codeOk) throw new InvalidParamsError({ code: 'code is not a current code of your authenticator app' });
    }
    return { recovery_codes: await this.accounts.regenerateRecoveryCodes(user) };
  }

  @Post('two-factor/disable')
  @ApiBody({ type: TwoFactorDisableDto, examples: { off: { summary: 'The password and a current code', value: { password: 'correct horse battery staple', code: '123456' } } } })
  @HttpCode(200)
  @ConsoleSessionRoute()
  @ApiSecurity(SESSION)
  @ApiOkResponse({ type: AcknowledgementDto, description: 'Two-factor sign-in is off; the recovery codes are deleted' })
  @ApiErrorResponses(400, 401, 409, 429)
  @ApiOperation({
    operationId: 'authDisableTwoFactor',
    summary: 'Turn off two-factor sign-in (needs your password and a code)',
    description:
      'Needs your account password and a current code (or a recovery code); either wrong is 400 `rest_invalid_param` and counts ' +
      'as a failed login. 409 `checkout_invalid_state` when two-factor is off.',
  })
  async disableTwoFactor(@Body() body: TwoFactorDisableDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AcknowledgementDto> {
    privateAnswer(res);
    const { user } = await this.signedIn(req);
    if (!user.twoFactorEnabledAt) throw new InvalidStateError('Two-factor sign-in is off.');
    await this.requirePassword(user, body.password, req.ip);
    const codeOk = await this.passwordCheck.limited(req.ip, async () => ((await this.accounts.checkSecondFactor(user, body.code)) ? true : null));
    if (!codeOk) throw new InvalidParamsError({ code: 'code is not a current code of your authenticator app or an unused recovery code' });
    await this.accounts.disableTwoFactor(user);
    return { success: true, message: 'Two-factor sign-in is off.' };
  }

  @Get('application-passwords')
  @ConsoleSessionRoute()
  @ApiSecurity(SESSION)
  @ApiOkResponse({ type: ApplicationPasswordDto, isArray: true })
  @ApiErrorResponses(400, 401)
  @ApiOperation({
    operationId: 'authListApplicationPasswords',
    summary: 'Your own application passwords (names and last use; never the password or its hash)',
    description:
      'Needs the session cookie and its nonce: any signed-in console user, whatever their role, sees their own application ' +
      'passwords only (an administrator manages a teammate\'s from the team routes). Oldest first, with when and from where each was last used.',
  })
  async listOwnPasswords(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ApplicationPasswordDto[]> {
    privateAnswer(res);
    const { user } = await this.signedIn(req);
    return (await this.identity.listApplicationPasswords(user.id)).map((summary) => ({ ...summary }));
  }

  @Delete('application-passwords/:uuid')
  @ConsoleSessionRoute()
  @ApiSecurity(SESSION)
  @ApiParam({ name: 'uuid', schema: { type: 'string', format: 'uuid' }, description: 'The application password’s uuid' })
  @ApiOkResponse({ type: ApplicationPasswordRevokedDto })
  @ApiErrorResponses(400, 401, 404)
  @ApiOperation({
    operationId: 'authRevokeApplicationPassword',
    summary: 'Revoke one of your own application passwords: it, and the console sessions opened with it, stop working at once',
    description:
      'Needs the session cookie and its nonce. Only a password of the signed-in user: another user\'s uuid is 404 `checkout_not_found`, ' +
      'as an unknown one is. Answers the revoked password as `previous`.',
  })
  async revokeOwnPassword(@Param('uuid') uuid: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ApplicationPasswordRevokedDto> {
    privateAnswer(res);
    const { user } = await this.signedIn(req);
    if (!UUID.test(uuid)) throw new InvalidParamsError({ uuid: 'uuid must be an application password uuid' });
    const previous = await this.identity.findApplicationPassword(user.id, uuid);
    if (!previous || !(await this.identity.revokeApplicationPassword(user.id, uuid))) throw new ApplicationPasswordNotFoundError();
    return { deleted: true, previous: { ...previous } };
  }

  private async signedIn(req: Request): Promise<{ session: { id: number }; user: UserEntity }> {
    const session = await this.sessions.requireSession(this.sessions.tokensOf(req), nonceHeader(req));
    const user = await this.accounts.findUser(session.user.id);
    if (!user) throw new Error('the session has no user');
    return { session, user };
  }

  private async requirePassword(user: UserEntity, password: string, ip: string | undefined): Promise<void> {
    if (!user.passwordHash) throw new InvalidStateError('Set an account password first.');
    if (!(await this.passwordCheck.confirmPassword(user, password, ip))) throw new InvalidParamsError({ password: 'password is not your account password' });
  }
}

/** 409 `checkout_invalid_state`: the account is not in the state the request needs. */
class InvalidStateError extends ConflictError {
  constructor(message: string) {
    super('checkout_invalid_state', message);
  }
}
