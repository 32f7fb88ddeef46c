import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute } from '../../common/auth/index.js';
import { AcknowledgementDto, ApiErrorResponses } from '../../common/openapi/index.js';
import { SettingsDto, UpdateSettingsDto } from './settings.dto.js';
import { SettingsService } from './settings.service.js';

@ApiTags('Settings (section B)')
@Controller('settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @AdminRoute()
  @ApiOperation({ operationId: 'settingsGet', summary: 'Read the general settings (API key masked)' })
  read(): Promise<SettingsDto> {
    return this.settings.read();
  }

  @Post()
  @HttpCode(200)
  @AdminRoute()
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'settingsUpdate', summary: 'Update general settings; omitted fields are kept' })
  async update(@Body() body: UpdateSettingsDto): Promise<AcknowledgementDto> {
    await this.settings.update(body);
    return { success: true, message: 'Settings updated.' };
  }

  @Delete()
  @AdminRoute()
  @ApiOperation({ operationId: 'settingsReset', summary: 'Reset general settings to their defaults' })
  async reset(): Promise<AcknowledgementDto> {
    await this.settings.reset();
    return { success: true, message: 'Settings reset to default.' };
  }
}
