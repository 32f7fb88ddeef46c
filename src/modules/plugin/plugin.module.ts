import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { SettingsModule } from '../settings/index.js';
import { HostPluginsService } from './host-plugins.service.js';
import { PluginController } from './plugin.controller.js';
import { PluginService } from './plugin.service.js';
import { UpgradeRegistry } from './upgrade-registry.js';

@Module({
  imports: [SettingsModule],
  controllers: [PluginController],
  providers: [PluginService, UpgradeRegistry, HostPluginsService],
  exports: [UpgradeRegistry, HostPluginsService],
})
export class PluginModule implements OnApplicationBootstrap {
  constructor(private readonly plugin: PluginService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.plugin.activate();
  }
}
