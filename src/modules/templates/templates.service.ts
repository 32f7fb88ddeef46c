import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { NotFoundError } from '../../common/errors/index.js';
import type { CheckoutPlan } from '../../config/index.js';
import { BUNDLED_FORM_TEMPLATES, type BundledFormTemplate, findFormTemplate } from './bundled-form-templates.js';
import { findLayout, isLayoutAllowed, LAYOUT_CATALOG, type PageLayout } from './layout-catalog.js';
import { renderFormTemplatePreview, renderLayoutCover } from './svg-preview.js';

export interface RenderedSvg {
  svg: string;
  /** Strong ETag (quoted) of the exact bytes */
  etag: string;
}

/**
 * The bundled catalog: the 10 payment-form setting templates, the full-page layouts, and their
 * SVG drawings. Everything here is static per release, so drawings are rendered once and kept.
 */
@Injectable()
export class TemplatesService {
  private readonly previews = new Map<string, RenderedSvg>();
  private readonly covers = new Map<string, string>();

  formTemplates(): readonly BundledFormTemplate[] {
    return BUNDLED_FORM_TEMPLATES;
  }

  /** A deep copy, so callers may adapt the settings without touching the catalog. */
  getFormTemplate(slug: string): BundledFormTemplate {
    const template = findFormTemplate(slug);
    if (!template) throw new NotFoundError('Template');
    return structuredClone(template);
  }

  previewSvg(slug: string): RenderedSvg {
    let rendered = this.previews.get(slug);
    if (!rendered) {
      const template = findFormTemplate(slug);
      if (!template) throw new NotFoundError('Template');
      const svg = renderFormTemplatePreview(template);
      rendered = { svg, etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"` };
      this.previews.set(slug, rendered);
    }
    return rendered;
  }

  /** Layouts the plan may import. */
  layoutsFor(plan: CheckoutPlan): PageLayout[] {
    return LAYOUT_CATALOG.filter((layout) => isLayoutAllowed(layout, plan));
  }

  getLayout(id: string): PageLayout {
    const layout = findLayout(id);
    if (!layout) throw new NotFoundError('Layout');
    return layout;
  }

  /** Cover image of a layout as a data URI (the catalog needs no image hosting). */
  layoutCover(layout: PageLayout): string {
    let cover = this.covers.get(layout.id);
    if (!cover) {
      cover = `data:image/svg+xml;base64,${Buffer.from(renderLayoutCover(layout)).toString('base64')}`;
      this.covers.set(layout.id, cover);
    }
    return cover;
  }
}
