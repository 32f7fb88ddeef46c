import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminRoute, type AuthenticatedUser, Capability, CurrentUser } from '../../common/auth/index.js';
import { Clock } from '../../common/clock/index.js';
import { InvalidParamsError } from '../../common/errors/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { IdParam } from '../../common/validation/index.js';
import { ApplicationPasswordNotFoundError } from './identity.errors.js';
import { type ApplicationPasswordSummary, IdentityService } from './identity.service.js';
import {
  ApplicationPasswordDto,
  ApplicationPasswordRevokedDto,
  CreateApplicationPasswordDto,
  CreateUserDto,
  NewApplicationPasswordDto,
  RoleDto,
  TeamUserDeletedDto,
  TeamUserDto,
  UpdateUserDto,
} from './team.dto.js';
import { type TeamMember, TeamService } from './team.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The team (issue 30; docs/administration.md "Team"): teammates, their roles and invitations, and
 * their application passwords, so nobody needs the CLI. Administrators only (`manage_checkout_users`).
 */
@ApiTags('Team')
@Controller('administration')
export class TeamController {
  constructor(
    private readonly team: TeamService,
    private readonly identity: IdentityService,
    private readonly clock: Clock,
  ) {}

  @Get('users')
  @AdminRoute(Capability.manageUsers)
  @ApiOperation({ operationId: 'teamListUsers', summary: 'The team: every user with their role, last sign-in and pending invitation', description: 'Oldest first. Never a password or a hash.' })
  @ApiOkResponse({ type: TeamUserDto, isArray: true })
  @ApiErrorResponses(400)
  async list(): Promise<TeamUserDto[]> {
    return (await this.team.list()).map((member) => this.toUserDto(member));
  }

  @Post('users')
  @AdminRoute(Capability.manageUsers)
  @ApiBody({
    type: CreateUserDto,
    examples: { support: { summary: 'Invite someone who answers payers (refunds, no settings)', value: { login: 'sam', email: 'sam@shop.example', display_name: 'Sam Rivera', role: 'support' } } },
  })
  @ApiOperation({
    operationId: 'teamCreateUser',
    summary: 'Invite a teammate: the user is created and gets an email with a set-password link (valid 7 days, once)',
    description:
      'The invitation email leaves through the outbox after the user is stored; its link is `{PUBLIC_BASE_URL}/admin/set-password#token=<token>`, spent by POST /auth/set-password ' +
      '(only a keyed hash of the token is stored). A login or email another user has is 409 `checkout_user_exists`.',
  })
  @ApiCreatedResponse({ type: TeamUserDto })
  @ApiErrorResponses(400, 409)
  async create(@Body() body: CreateUserDto, @CurrentUser() actor: AuthenticatedUser): Promise<TeamUserDto> {
    return this.toUserDto(await this.team.invite({ login: body.login, email: body.email, displayName: body.display_name, role: body.role }, actor.id));
  }

  @Get('users/:id')
  @AdminRoute(Capability.manageUsers)
  @ApiOperation({ operationId: 'teamGetUser', summary: 'One user of the team', description: 'As listed by GET /administration/users.' })
  @ApiOkResponse({ type: TeamUserDto })
  @ApiErrorResponses(400, 404)
  async get(@IdParam('id') id: number): Promise<TeamUserDto> {
    return this.toUserDto(await this.team.get(id));
  }

  @Patch('users/:id')
  @AdminRoute(Capability.manageUsers)
  @ApiBody({
    type: UpdateUserDto,
    examples: {
      role: { summary: 'Make a teammate support (ends their sessions, revokes their application passwords)', value: { role: 'support' } },
      name: { summary: 'Change the name shown', value: { display_name: 'Sam R.' } },
    },
  })
  @ApiOperation({
    operationId: 'teamUpdateUser',
    summary: "Change a user's login, email, name or role; a changed role ends their sessions and revokes their application passwords",
    description:
      'Only the members given change. Demoting the last administrator is 409 `checkout_last_administrator`; a login or email another ' +
      'user has is 409 `checkout_user_exists`.',
  })
  @ApiOkResponse({ type: TeamUserDto })
  @ApiErrorResponses(400, 404, 409)
  async update(@IdParam('id') id: number, @Body() body: UpdateUserDto): Promise<TeamUserDto> {
    return this.toUserDto(await this.team.update(id, { login: body.login, email: body.email, displayName: body.display_name, role: body.role }));
  }

  @Delete('users/:id')
  @AdminRoute(Capability.manageUsers)
  @ApiOperation({
    operationId: 'teamDeleteUser',
    summary: 'Remove a user: their sessions end and their application passwords stop working at once',
    description: 'Answers the deleted user as `previous`. The last administrator cannot be deleted (409 `checkout_last_administrator`). Forms they wrote stay.',
  })
  @ApiOkResponse({ type: TeamUserDeletedDto })
  @ApiErrorResponses(400, 404, 409)
  async remove(@IdParam('id') id: number): Promise<TeamUserDeletedDto> {
    return { deleted: true, previous: this.toUserDto(await this.team.remove(id)) };
  }

  @Post('users/:id/invitation')
  @AdminRoute(Capability.manageUsers)
  @HttpCode(201)
  @ApiOperation({
    operationId: 'teamReinviteUser',
    summary: 'Send a user a new invitation (7 days); their earlier link stops working',
    description: 'For an invitation that expired or was lost. The user keeps whatever password they have until they use the new link.',
  })
  @ApiCreatedResponse({ type: TeamUserDto })
  @ApiErrorResponses(400, 404)
  async reinvite(@IdParam('id') id: number, @CurrentUser() actor: AuthenticatedUser): Promise<TeamUserDto> {
    return this.toUserDto(await this.team.reinvite(id, actor.id));
  }

  @Get('users/:id/application-passwords')
  @AdminRoute(Capability.manageUsers)
  @ApiOperation({ operationId: 'teamListApplicationPasswords', summary: "A user's application passwords (names and last use; never the password or its hash)", description: 'Oldest first, with when and from where each was last used.' })
  @ApiOkResponse({ type: ApplicationPasswordDto, isArray: true })
  @ApiErrorResponses(400, 404)
  async listPasswords(@IdParam('id') id: number): Promise<ApplicationPasswordDto[]> {
    await this.team.get(id);
    return (await this.identity.listApplicationPasswords(id)).map(toPasswordDto);
  }

  @Post('users/:id/application-passwords')
  @AdminRoute(Capability.manageUsers)
  @ApiBody({ type: CreateApplicationPasswordDto, examples: { script: { summary: 'A password for a script', value: { name: 'Accounting export' } } } })
  @ApiOperation({
    operationId: 'teamCreateApplicationPassword',
    summary: 'Create an application password for a user (HTTP Basic `login:password`); the answer shows it, once',
    description: 'Only its keyed hash is stored: copy it now. It acts with the user’s role and stops working when revoked, when the role changes or when the user is deleted.',
  })
  @ApiCreatedResponse({ type: NewApplicationPasswordDto })
  @ApiErrorResponses(400, 404)
  async createPassword(@IdParam('id') id: number, @Body() body: CreateApplicationPasswordDto): Promise<NewApplicationPasswordDto> {
    await this.team.get(id);
    const { uuid, password } = await this.identity.createApplicationPassword(id, body.name);
    const created = await this.identity.findApplicationPassword(id, uuid);
    if (!created) throw new ApplicationPasswordNotFoundError();
    return { ...toPasswordDto(created), password };
  }

  @Delete('users/:id/application-passwords/:uuid')
  @AdminRoute(Capability.manageUsers)
  @ApiParam({ name: 'uuid', schema: { type: 'string', format: 'uuid' }, description: 'The application password’s uuid' })
  @ApiOperation({
    operationId: 'teamRevokeApplicationPassword',
    summary: "Revoke one of a user's application passwords: it, and the console sessions opened with it, stop working at once",
    description: 'Answers the revoked password as `previous`.',
  })
  @ApiOkResponse({ type: ApplicationPasswordRevokedDto })
  @ApiErrorResponses(400, 404)
  async revokePassword(@IdParam('id') id: number, @Param('uuid') uuid: string): Promise<ApplicationPasswordRevokedDto> {
    if (!UUID.test(uuid)) throw new InvalidParamsError({ uuid: 'uuid must be an application password uuid' });
    await this.team.get(id);
    const previous = await this.identity.findApplicationPassword(id, uuid);
    if (!previous || !(await this.identity.revokeApplicationPassword(id, uuid))) throw new ApplicationPasswordNotFoundError();
    return { deleted: true, previous: toPasswordDto(previous) };
  }

  private toUserDto(member: TeamMember): TeamUserDto {
    return toUserDto(member, this.clock.now());
  }

  @Get('roles')
  @AdminRoute(Capability.manageUsers)
  @ApiOperation({
    operationId: 'teamListRoles',
    summary: 'The roles and their capabilities, as stored (docs/security.md, "Roles")',
    description: 'The console roles (administrator, editor, support, viewer) first; `assignable` says which a teammate may be given.',
  })
  @ApiOkResponse({ type: RoleDto, isArray: true })
  @ApiErrorResponses(400)
  async roles(): Promise<RoleDto[]> {
    return (await this.team.roleTable()).map((role) => ({ name: role.name, display_name: role.displayName, capabilities: role.capabilities, assignable: role.assignable }));
  }
}

function toUserDto({ user, invitation }: TeamMember, now: Date): TeamUserDto {
  return {
    id: user.id,
    login: user.login,
    email: user.email,
    display_name: user.displayName,
    role: user.role,
    created_at: user.createdAt.toISOString(),
    last_sign_in_at: user.lastSignInAt?.toISOString() ?? null,
    invitation: invitation
      ? { status: invitation.expiresAt.getTime() > now.getTime() ? 'pending' : 'expired', expires_at: invitation.expiresAt.toISOString(), sent_at: invitation.sentAt?.toISOString() ?? null }
      : null,
  };
}

function toPasswordDto(summary: ApplicationPasswordSummary): ApplicationPasswordDto {
  return { ...summary };
}
