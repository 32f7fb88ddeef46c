import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability } from '../../common/auth/index.js';
import { AcknowledgementDto, ApiErrorResponses } from '../../common/openapi/index.js';
import { SettingsDto, UpdateSettingsDto } from './settings.dto.js';
import { SettingsService } from './settings.service.js';

@ApiTags('Settings')
@Controller('settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'settingsGet', description: 'The site\'s general settings: currency, default payment gateway, debug mode, and the API key as a mask (never the key itself).', summary: 'Read the general settings (API key masked)' })
  @ApiOkResponse({ type: SettingsDto })
  read(): Promise<SettingsDto> {
    return this.settings.read();
  }

  @Post()
  // Swagger UI pre-fills the first example; a sample built from the schema would send a 6-character `api_key` (at least 8).
  @ApiBody({
    type: UpdateSettingsDto,
    examples: {
      currency: { summary: 'Change the currency and the default gateway (other settings are kept)', value: { currency: 'USD', payment_gateway: 'gateway_a', debug_mode: false } },
      api_key: { summary: 'Store an API key (write-only, shown as a mask)', value: { api_key: 'sk_example_0123456789' } },
    },
  })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'settingsUpdate', description: 'Changes the general settings you send; fields you leave out keep their value. The API key is write-only: it is stored and only ever shown as a mask.', summary: 'Update general settings; omitted fields are kept' })
  @ApiOkResponse({ type: AcknowledgementDto })
  async update(@Body() body: UpdateSettingsDto): Promise<AcknowledgementDto> {
    await this.settings.update(body);
    return { success: true, message: 'Settings updated.' };
  }

  @Delete()
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'settingsReset', description: 'Restores every general setting to its default (currency USD, gateway A, no API key, debug off).', summary: 'Reset general settings to their defaults' })
  @ApiOkResponse({ type: AcknowledgementDto })
  async reset(): Promise<AcknowledgementDto> {
    await this.settings.reset();
    return { success: true, message: 'Settings reset to default.' };
  }
}
