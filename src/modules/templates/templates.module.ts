import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BundledTemplatesController } from './bundled-templates.controller.js';
import { PageEntity } from './page.entity.js';
import { PagesService } from './pages.service.js';
import { TemplatesService } from './templates.service.js';

/** Bundled form templates, the full-page layout catalog, their SVG drawings, and the pages layouts import into. */
@Module({
  imports: [TypeOrmModule.forFeature([PageEntity])],
  controllers: [BundledTemplatesController],
  providers: [TemplatesService, PagesService],
  exports: [TemplatesService, PagesService],
})
export class TemplatesModule {}
