import { CHECKOUT_VERSION } from '../../config/index.js';
import { describePrice, methodLabel } from '../forms/index.js';
import type { BundledFormTemplate } from './bundled-form-templates.js';
import type { LayoutBlock, PageLayout } from './layout-catalog.js';

/**
 * Deterministic SVG drawings of the bundled catalog: the same input and release give the same
 * bytes (no dates, random ids or merchant data), so the output can carry a strong ETag.
 */

const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';
const WIDTH = 360;
const PAD = 20;

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function text(x: number, y: number, content: string, attrs: string): string {
  return `<text x="${x}" y="${y}" ${attrs}>${escapeXml(content)}</text>`;
}

function safeColor(color: unknown, fallback: string): string {
  return typeof color === 'string' && /^#[0-9a-fA-F]{6}$/.test(color) ? color.toLowerCase() : fallback;
}

/** Preview card of a bundled payment-form template: title, plans with prices, fields, methods, button. */
export function renderFormTemplatePreview(template: BundledFormTemplate): string {
  const { settings } = template;
  const accent = safeColor(settings.display.primary_color, '#2563eb');
  const parts: string[] = [];

  parts.push(`<rect x="0" y="0" width="${WIDTH}" height="56" fill="${accent}"/>`);
  parts.push(text(PAD, 35, clip(template.name, 30), `font-size="18" font-weight="700" fill="#ffffff"`));
  let y = 80;
  parts.push(text(PAD, y, clip(template.description, 52), `font-size="12" fill="#475569"`));
  y += 16;

  for (const plan of settings.plans.slice(0, 4)) {
    const [first, ...others] = plan.prices;
    const price = clip(describePrice(first), 34) + (others.length ? ` +${others.length}` : '');
    parts.push(`<rect x="${PAD}" y="${y}" width="${WIDTH - 2 * PAD}" height="40" rx="6" fill="#f8fafc" stroke="#cbd5e1"/>`);
    parts.push(text(PAD + 12, y + 25, clip(plan.title, 20), `font-size="13" font-weight="600" fill="#0f172a"`));
    parts.push(text(WIDTH - PAD - 12, y + 25, price, `font-size="12" text-anchor="end" fill="#0f172a"`));
    y += 48;
  }

  y += 4;
  for (const field of settings.fields.slice(0, 6)) {
    parts.push(text(PAD, y + 10, clip(field.label, 40) + (field.required ? ' *' : ''), `font-size="11" fill="#334155"`));
    parts.push(`<rect x="${PAD}" y="${y + 16}" width="${WIDTH - 2 * PAD}" height="24" rx="4" fill="#ffffff" stroke="#cbd5e1"/>`);
    y += 48;
  }

  const methods = Object.values(settings.payment_methods).flatMap((methods) => methods ?? []).map(methodLabel);
  parts.push(text(PAD, y + 8, clip(methods.join(' · '), 56), `font-size="11" fill="#64748b"`));
  y += 20;

  const label = typeof settings.display.button_label === 'string' ? settings.display.button_label : 'Pay';
  parts.push(`<rect x="${PAD}" y="${y}" width="${WIDTH - 2 * PAD}" height="36" rx="6" fill="${accent}"/>`);
  parts.push(text(WIDTH / 2, y + 23, clip(label, 30), `font-size="14" font-weight="600" text-anchor="middle" fill="#ffffff"`));
  y += 36 + PAD;

  return svgDocument(WIDTH, y, `${template.name} payment form template`, `bundled template ${template.slug}`, parts);
}

const BLOCK_HEIGHTS: Record<LayoutBlock['type'], number> = { hero: 44, payment_form: 52, features: 26, testimonial: 22, faq: 30, text: 18 };

/** Wireframe cover of a full-page layout: its blocks stacked as they appear on the page. */
export function renderLayoutCover(layout: PageLayout): string {
  const width = 240;
  const accent = safeColor(layout.accent_color, '#2563eb');
  const parts: string[] = [];
  let y = 8;
  for (const block of layout.blocks) {
    const height = BLOCK_HEIGHTS[block.type];
    switch (block.type) {
      case 'hero':
        parts.push(`<rect x="8" y="${y}" width="${width - 16}" height="${height - 6}" rx="4" fill="${accent}"/>`);
        parts.push(text(16, y + 22, clip(block.heading, 30), `font-size="11" font-weight="700" fill="#ffffff"`));
        break;
      case 'payment_form':
        parts.push(`<rect x="48" y="${y}" width="${width - 96}" height="${height - 6}" rx="4" fill="#ffffff" stroke="${accent}" stroke-width="2"/>`);
        parts.push(`<rect x="60" y="${y + 28}" width="${width - 120}" height="10" rx="2" fill="${accent}"/>`);
        parts.push(text(60, y + 18, 'Payment form', `font-size="9" fill="#334155"`));
        break;
      case 'features':
        for (let i = 0; i < 3; i += 1) parts.push(`<rect x="${8 + i * 76}" y="${y}" width="70" height="${height - 6}" rx="3" fill="#e2e8f0"/>`);
        break;
      default:
        parts.push(`<rect x="8" y="${y}" width="${width - 16}" height="${height - 6}" rx="3" fill="#f1f5f9"/>`);
        parts.push(`<rect x="16" y="${y + 5}" width="${width - 80}" height="4" rx="2" fill="#94a3b8"/>`);
    }
    y += height;
  }
  return svgDocument(width, y + 2, `${layout.name} layout`, `layout ${layout.id}`, parts);
}

function svgDocument(width: number, height: number, title: string, what: string, parts: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" font-family="${FONT}">`,
    `<!-- checkout ${CHECKOUT_VERSION}: ${escapeXml(what)} -->`,
    `<title>${escapeXml(title)}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
