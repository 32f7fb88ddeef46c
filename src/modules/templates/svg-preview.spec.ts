import { createHash } from 'node:crypto';
import { BUNDLED_FORM_TEMPLATES, type BundledFormTemplate } from './bundled-form-templates.js';
import { LAYOUT_CATALOG } from './layout-catalog.js';
import { escapeXml, renderFormTemplatePreview, renderLayoutCover } from './svg-preview.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('renderFormTemplatePreview', () => {
  it('renders the same bytes every time for every template', () => {
    for (const template of BUNDLED_FORM_TEMPLATES) {
      const first = renderFormTemplatePreview(template);
      const again = renderFormTemplatePreview(structuredClone(template));
      expect(again).toBe(first);
    }
  });

  it('draws a different picture per template', () => {
    const hashes = new Set(BUNDLED_FORM_TEMPLATES.map((template) => sha(renderFormTemplatePreview(template))));
    expect(hashes.size).toBe(BUNDLED_FORM_TEMPLATES.length);
  });

  it('draws the plans with their formatted prices, the button and the template name', () => {
    const subscription = BUNDLED_FORM_TEMPLATES.find((template) => template.slug === 'subscription')!;
    const svg = renderFormTemplatePreview(subscription);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('>Monthly</text>');
    expect(svg).toContain('$9.99 / month');
    expect(svg).toContain('$99.99 / year');
    expect(svg).toContain('>Subscribe</text>');
    expect(svg).toContain('<title>Subscription payment form template</title>');
  });

  it('escapes every text it draws and refuses non-hex colours', () => {
    const hostile: BundledFormTemplate = {
      ...structuredClone(BUNDLED_FORM_TEMPLATES[0]),
      name: '<script>alert(1)</script>',
      description: 'a & b "c"',
    };
    hostile.settings.plans[0].title = '</text><image href="x"/>';
    hostile.settings.display.primary_color = 'red" onload="alert(1)';
    const svg = renderFormTemplatePreview(hostile);
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<image');
    expect(svg).not.toContain('onload');
    expect(svg).toContain('&lt;script&gt;');
    expect(svg).toContain('a &amp; b &quot;c&quot;');
    expect(svg).toContain('fill="#2563eb"');
  });

  it('never carries merchant data: only what the bundled template holds', () => {
    for (const template of BUNDLED_FORM_TEMPLATES) {
      const svg = renderFormTemplatePreview(template);
      expect(svg).not.toContain(template.settings.email.email_to);
      expect(svg).not.toMatch(/\d{4}-\d\d-\d\dT/);
    }
  });
});

describe('renderLayoutCover', () => {
  it('is deterministic and distinct per layout', () => {
    const covers = LAYOUT_CATALOG.map((layout) => renderLayoutCover(layout));
    expect(LAYOUT_CATALOG.map((layout) => renderLayoutCover(layout))).toEqual(covers);
    expect(new Set(covers.map(sha)).size).toBe(LAYOUT_CATALOG.length);
  });
});

describe('escapeXml', () => {
  it('escapes the five XML specials', () => {
    expect(escapeXml(`<a href='x'>"&"</a>`)).toBe('&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;');
  });
});
