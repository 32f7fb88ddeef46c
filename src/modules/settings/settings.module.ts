import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OptionEntity } from './option.entity.js';
import { OptionsService } from './options.service.js';
import { SettingsController } from './settings.controller.js';
import { SettingsService } from './settings.service.js';

/** Owns the options table; other modules read and write options through OptionsService. */
@Module({
  imports: [TypeOrmModule.forFeature([OptionEntity])],
  controllers: [SettingsController],
  providers: [OptionsService, SettingsService],
  exports: [OptionsService],
})
export class SettingsModule {}
