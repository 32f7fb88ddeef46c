import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/index.js';
import { GatewayStateService } from './gateway-state.service.js';

@Module({
  imports: [SettingsModule],
  providers: [GatewayStateService],
  exports: [GatewayStateService],
})
export class GatewaysModule {}
