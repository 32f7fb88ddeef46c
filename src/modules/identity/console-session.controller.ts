import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CONSOLE_SESSION_COOKIE, COOKIE_AUTH_SCHEME, ConsoleSessionRoute, NONCE_AUTH_SCHEME } from '../../common/auth/index.js';
import { NotLoggedInError } from '../../common/errors/index.js';
import { AcknowledgementDto, ApiErrorResponses } from '../../common/openapi/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { HOST_SESSION_COOKIE } from './console-session-cookie.js';
import { TwoFactorSignInDto } from './accounts/account.dto.js';
import { ConsoleSessionDto, SignInDto } from './console-session.dto.js';
import { type ConsoleSession, ConsoleSessionService } from './console-session.service.js';

const SET_COOKIE = {
  'Set-Cookie': {
    description:
      `Over HTTPS \`${HOST_SESSION_COOKIE}=<token>; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=<SESSION_TTL_SECONDS>\` ` +
      `(no sibling host can plant a cookie of that name); over plain HTTP \`${CONSOLE_SESSION_COOKIE}=<token>; Path=/{REST_ROOT}/checkout/v1; HttpOnly; SameSite=Strict; Max-Age=<SESSION_TTL_SECONDS>\``,
    schema: { type: 'string' },
  },
};
const NONCE_HEADER = 'X-WP-Nonce';

/**
 * The admin console's sign-in, as the host platform's own admin UI does it: a session cookie the
 * browser keeps (HttpOnly, so no script holds a credential) and a nonce the console sends with
 * every request. Same-origin only (ConsoleSessionRoute); never CORS.
 */
@ApiTags('Sign-in')
@Controller('auth/session')
export class ConsoleSessionController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @ConsoleSessionRoute()
  @ApiSecurity({}) // no credentials yet: the body carries them
  @ApiBody({ type: SignInDto, examples: { admin: { summary: 'Sign in as admin', value: { login: 'admin', password: 'correct horse battery staple' } } } })
  @ApiCreatedResponse({ type: ConsoleSessionDto, description: 'Signed in: the session cookie is set, the body holds the nonce', headers: SET_COOKIE })
  @ApiErrorResponses(400, 401, 429)
  @ApiOperation({
    operationId: 'authSignIn',
    summary: 'Sign in to the admin console with a login and the account password (or an application password)',
    description:
      'Checks the login and password under the failed-login limit HTTP Basic shares (per client). The password is the ' +
      "account password (scrypt) or one of the user's application passwords; a wrong password or an unknown login both " +
      'answer 401 `rest_not_logged_in` "Incorrect login or password." (an unknown login costs the same scrypt check). A user ' +
      'with two-factor sign-in on gets 401 `checkout_two_factor_required` with `data.challenge` (5 minutes): send it with a code ' +
      'to POST /auth/session/two-factor. A user without an account password gets a session with `must_set_password: true`: ' +
      'the console asks for one first (PUT /auth/password). On success the session cookie is set ' +
      '(HttpOnly, SameSite=Strict; over HTTPS named `__Host-checkout_console_session`, Secure, `Path=/`; over plain HTTP scoped to ' +
      'the REST namespace) and the body gives the nonce to send as ' +
      '`X-WP-Nonce` with every request; the cookie without it authenticates nothing. The session ends on sign-out, when the ' +
      'application password is revoked, after SESSION_IDLE_TIMEOUT_SECONDS without a request, and SESSION_TTL_SECONDS after sign-in. ' +
      'Only same-origin browser requests are accepted (403 `rest_cross_site_request` otherwise).',
  })
  async signIn(@Body() body: SignInDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ConsoleSessionDto> {
    privateAnswer(res);
    const { token, session } = await this.sessions.signIn(body.login, body.password, req.ip);
    const cookie = this.sessions.cookieFor(req, this.config.session.ttlSeconds);
    res.cookie(cookie.name, token, cookie.options);
    return this.toDto(token, session);
  }

  @Post('two-factor')
  @ApiBody({ type: TwoFactorSignInDto, examples: { code: { summary: 'The challenge of the sign-in answer and a code', value: { challenge: 'Kq3v9Zp0yXb7LmN2sR5tW8uE1oI4aD6fG0hJ2kL9mN_', code: '123456' } } } })
  @HttpCode(201)
  @ConsoleSessionRoute()
  @ApiSecurity({})
  @ApiCreatedResponse({ type: ConsoleSessionDto, description: 'Signed in: the session cookie is set, the body holds the nonce', headers: SET_COOKIE })
  @ApiErrorResponses(400, 401, 429)
  @ApiOperation({
    operationId: 'authSignInTwoFactor',
    summary: 'The second step of a two-factor sign-in: the challenge and a code',
    description:
      'Takes the `challenge` of the 401 `checkout_two_factor_required` answer and the current 6-digit code of the ' +
      "user's authenticator app (RFC 6238, ±30 s; a code works once) or one of their recovery codes (each works once). On " +
      'success the session opens as POST /auth/session opens it. A wrong code answers 401 `checkout_two_factor_invalid` ' +
      'and counts as a failed login of the client; after 5 wrong codes, or 5 minutes, the challenge ends (401 ' +
      '`checkout_two_factor_expired`: sign in again).',
  })
  async signInTwoFactor(@Body() body: TwoFactorSignInDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ConsoleSessionDto> {
    privateAnswer(res);
    const { token, session } = await this.sessions.signInTwoFactor(body.challenge, body.code, req.ip);
    const cookie = this.sessions.cookieFor(req, this.config.session.ttlSeconds);
    res.cookie(cookie.name, token, cookie.options);
    return this.toDto(token, session);
  }

  @Get()
  @ConsoleSessionRoute()
  @ApiSecurity({ [COOKIE_AUTH_SCHEME]: [] })
  @ApiHeader({
    name: NONCE_HEADER,
    required: false,
    description: "The session's nonce. When sent it must be the session's own (403 otherwise); without it the answer gives the nonce again",
  })
  @ApiOkResponse({ type: ConsoleSessionDto, description: 'Who is signed in, and the nonce of the session' })
  @ApiNoContentResponse({ description: 'No live session: signed out, expired, or its application password revoked (the cookie is cleared)' })
  @ApiOperation({
    operationId: 'authSession',
    summary: 'Who is signed in to the admin console (and the session nonce, after a reload)',
    description:
      'Answers the signed-in user, their capabilities and the session nonce for the session cookie, or 204 when there is no ' +
      'live session (signed out, expired, or its application password revoked; the cookie is then cleared): asking is not ' +
      'an error, so a console at its first load logs none. A console that ' +
      'was reloaded calls it without `X-WP-Nonce` to get its nonce back, as the host platform embeds it in the admin page: ' +
      'only a same-origin request is accepted and no other site can read the answer (no CORS, SameSite=Strict).',
  })
  async current(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ConsoleSessionDto | undefined> {
    privateAnswer(res);
    const tokens = this.sessions.tokensOf(req);
    try {
      const { token, session } = await this.sessions.current(tokens, nonceHeader(req));
      return this.toDto(token, session);
    } catch (error) {
      if (!(error instanceof NotLoggedInError)) throw error;
      if (tokens.length > 0) this.clearCookie(req, res);
      res.status(204);
      return undefined;
    }
  }

  @Delete()
  @ConsoleSessionRoute()
  @ApiSecurity({ [COOKIE_AUTH_SCHEME]: [], [NONCE_AUTH_SCHEME]: [] })
  @ApiOkResponse({ type: AcknowledgementDto, description: 'Signed out: the session is deleted and the cookie cleared' })
  @ApiErrorResponses(401)
  @ApiOperation({
    operationId: 'authSignOut',
    summary: 'Sign out of the admin console',
    description:
      'Deletes the session on the server (every instance refuses its cookie from now on) and clears the cookie. Needs the ' +
      'cookie and its nonce in `X-WP-Nonce` (401 without the nonce, 403 `rest_cookie_invalid_nonce` with another one); a ' +
      'session that already ended is signed out all the same.',
  })
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AcknowledgementDto> {
    privateAnswer(res);
    await this.sessions.end(this.sessions.tokensOf(req), nonceHeader(req));
    this.clearCookie(req, res);
    return { success: true, message: 'Signed out.' };
  }

  private toDto(token: string, session: ConsoleSession): ConsoleSessionDto {
    return {
      nonce: this.sessions.nonceFor(token),
      user: {
        id: session.user.id,
        login: session.user.login,
        display_name: session.displayName,
        role: session.user.role,
        capabilities: [...session.user.capabilities].sort(),
        locale: session.locale,
      },
      must_set_password: session.mustSetPassword,
      expires_at: session.endsAt.toISOString(),
      idle_timeout_seconds: this.config.session.idleTimeoutSeconds,
    };
  }

  private clearCookie(req: Request, res: Response): void {
    const cookie = this.sessions.cookieFor(req);
    res.clearCookie(cookie.name, cookie.options);
  }
}

/** The answers carry the nonce: never stored by a cache, never read as anything but JSON. */
export function privateAnswer(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

export function nonceHeader(req: Request): string | undefined {
  const value = req.headers['x-wp-nonce'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
