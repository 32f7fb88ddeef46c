import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute } from '../../common/auth/index.js';
import { AcknowledgementDto, ApiErrorResponses } from '../../common/openapi/index.js';
import { PluginInfoDto, PluginStatusDto, PluginUpdateDto } from './plugin.dto.js';
import { PluginService } from './plugin.service.js';

@ApiTags('Plugin')
@Controller('plugin')
export class PluginController {
  constructor(private readonly plugin: PluginService) {}

  @Get('info')
  @AdminRoute()
  @ApiOperation({ operationId: 'pluginInfo', summary: 'Plugin name, version, author and license' })
  info(): PluginInfoDto {
    return this.plugin.info();
  }

  @Get('status')
  @AdminRoute()
  @ApiOperation({ operationId: 'pluginStatus', summary: 'Whether the plugin is active, and its installed version' })
  status(): Promise<PluginStatusDto> {
    return this.plugin.status();
  }

  @Post('update')
  @HttpCode(200)
  @AdminRoute()
  @ApiErrorResponses(400, 409)
  @ApiOperation({ operationId: 'pluginUpdate', summary: 'Run the upgrade routines up to a release' })
  async update(@Body() body: PluginUpdateDto): Promise<AcknowledgementDto> {
    await this.plugin.update(body.version);
    return { success: true, message: `Plugin updated to version ${body.version}.` };
  }
}
