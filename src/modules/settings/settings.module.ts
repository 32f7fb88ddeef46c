import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InstallationService } from './installation.service.js';
import { OptionEntity } from './option.entity.js';
import { OptionsService } from './options.service.js';
import { SecretCanary } from './secret-canary.service.js';
import { SettingsController } from './settings.controller.js';
import { SettingsService } from './settings.service.js';

/**
 * Owns the options table; other modules read and write options through OptionsService. While the
 * app initialises (before any module's onApplicationBootstrap) it checks the master secret against
 * the stored canary and loads the installation id.
 */
@Module({
  imports: [TypeOrmModule.forFeature([OptionEntity])],
  controllers: [SettingsController],
  providers: [OptionsService, SettingsService, InstallationService, SecretCanary],
  exports: [OptionsService, InstallationService, SecretCanary, SettingsService],
})
export class SettingsModule implements OnModuleInit {
  constructor(
    private readonly canary: SecretCanary,
    private readonly installation: InstallationService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.canary.verifyOrStore();
    await this.installation.load();
  }
}
