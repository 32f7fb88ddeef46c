import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser } from '../../common/auth/index.js';
import { AcknowledgementDto, ApiErrorResponses } from '../../common/openapi/index.js';
import { HostPluginsService, PAGE_BUILDER_PLUGIN } from './host-plugins.service.js';
import { PluginActionResultDto, PluginInfoDto, PluginSlugDto, PluginStatusDto, PluginUpdateDto } from './plugin.dto.js';
import { PluginService } from './plugin.service.js';

@ApiTags('Plugin')
@Controller('plugin')
export class PluginController {
  constructor(
    private readonly plugin: PluginService,
    private readonly hostPlugins: HostPluginsService,
  ) {}

  @Get('info')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'pluginInfo', description: 'Name, version, author and license of the running plugin, e.g. to show in an about box or to check which release a site runs.', summary: 'Plugin name, version, author and license' })
  @ApiOkResponse({ type: PluginInfoDto })
  info(): PluginInfoDto {
    return this.plugin.info();
  }

  @Get('status')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'pluginStatus', description: 'Whether the plugin is active, and which version its data was last upgraded to (differs from the running version until `POST /plugin/update` runs).', summary: 'Whether the plugin is active, and its installed version' })
  @ApiOkResponse({ type: PluginStatusDto })
  status(): Promise<PluginStatusDto> {
    return this.plugin.status();
  }

  @Post('update')
  @ApiBody({ type: PluginUpdateDto, examples: { release: { summary: 'Upgrade the stored data to release 1.5.3', value: { version: '1.5.3' } } } })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400, 409)
  @ApiOperation({ operationId: 'pluginUpdate', description: 'Runs the upgrade routines from the stored version up to `version` (never beyond the running code\'s version) and records it. Going from 1.5.2 to 1.5.3 schedules the in-place update of the gateway A webhook endpoint.', summary: 'Run the upgrade routines up to a release' })
  @ApiOkResponse({ type: AcknowledgementDto })
  async update(@Body() body: PluginUpdateDto): Promise<AcknowledgementDto> {
    await this.plugin.update(body.version);
    return { success: true, message: `Plugin updated to version ${body.version}.` };
  }

  @Post('install')
  @ApiBody({ type: PluginSlugDto, examples: { page_builder: { summary: 'The page-builder plugin (the only slug allowed)', value: { slug: 'page_builder' } } } })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: PluginActionResultDto })
  @ApiOperation({
    operationId: 'pluginInstall',
    summary: 'Install the page-builder plugin (slug `page_builder` only; also needs the host capability install_plugins)',
    description: 'Any other slug: 400 `checkout_plugin_not_allowed`. Installing an installed plugin changes nothing.',
  })
  async install(@CurrentUser() user: AuthenticatedUser, @Body() body: PluginSlugDto): Promise<PluginActionResultDto> {
    const { changed, state } = await this.hostPlugins.install(user, body.slug);
    const message = changed ? `${PAGE_BUILDER_PLUGIN.name} plugin installed.` : `${PAGE_BUILDER_PLUGIN.name} plugin is already installed.`;
    return { success: true, message, slug: state.slug, installed: state.installed, active: state.active };
  }

  @Post('activate')
  @ApiBody({ type: PluginSlugDto, examples: { page_builder: { summary: 'The page-builder plugin (the only slug allowed)', value: { slug: 'page_builder' } } } })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400, 409)
  @ApiOkResponse({ type: PluginActionResultDto })
  @ApiOperation({
    operationId: 'pluginActivate',
    summary: 'Activate the installed page-builder plugin (slug `page_builder` only; also needs activate_plugins)',
    description: 'Any other slug: 400 `checkout_plugin_not_allowed`. Before install: 409 `checkout_plugin_not_installed`.',
  })
  async activate(@CurrentUser() user: AuthenticatedUser, @Body() body: PluginSlugDto): Promise<PluginActionResultDto> {
    const { changed, state } = await this.hostPlugins.activate(user, body.slug);
    const message = changed ? `${PAGE_BUILDER_PLUGIN.name} plugin activated.` : `${PAGE_BUILDER_PLUGIN.name} plugin is already active.`;
    return { success: true, message, slug: state.slug, installed: state.installed, active: state.active };
  }
}
