export { TemplatesModule } from './templates.module.js';
export { TemplatesService, type RenderedSvg } from './templates.service.js';
export { PagesService, type DraftPage, type PageBlock } from './pages.service.js';
export { BUNDLED_FORM_TEMPLATES, type BundledFormTemplate } from './bundled-form-templates.js';
export { LAYOUT_CATALOG, PAGE_BUILDER_SLUG, isLayoutAllowed, type LayoutBlock, type PageLayout } from './layout-catalog.js';
