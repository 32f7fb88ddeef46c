import { checkFormSettings } from '../forms/index.js';
import { BUNDLED_FORM_TEMPLATES, findFormTemplate } from './bundled-form-templates.js';
import { findLayout, isLayoutAllowed, LAYOUT_CATALOG, PAGE_BUILDER_SLUG } from './layout-catalog.js';

describe('bundled payment-form templates', () => {
  it('are exactly the 10 slugs of docs/decisions.md §11', () => {
    expect(BUNDLED_FORM_TEMPLATES.map((template) => template.slug).sort()).toEqual(
      ['consultation', 'course', 'donation', 'event-ticket', 'invoice', 'membership', 'pre-order', 'simple-payment', 'subscription', 'tip-jar'].sort(),
    );
  });

  it.each(BUNDLED_FORM_TEMPLATES.map((template) => [template.slug, template]))('%s passes the form write rules', (_slug, template) => {
    expect(checkFormSettings(template.settings)).toBeNull();
  });

  it('has the three fixed contents', () => {
    expect(findFormTemplate('simple-payment')!.settings.plans).toEqual([{ title: 'Payment', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }]);
    const donation = findFormTemplate('donation')!.settings.plans;
    expect(donation).toHaveLength(1);
    expect(donation[0].title).toBe('Donation');
    expect(donation[0].prices).toHaveLength(1);
    expect(donation[0].prices[0]).toMatchObject({ currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 1000000 } });
    expect(findFormTemplate('subscription')!.settings.plans).toEqual([
      { title: 'Monthly', prices: [{ amount: 999, currency: 'USD', frequency: 'm_1' }] },
      { title: 'Yearly', prices: [{ amount: 9999, currency: 'USD', frequency: 'y_1' }] },
    ]);
  });
});

describe('full-page layout catalog', () => {
  it('has at least 12 layouts with unique ids, each depending on the page builder and embedding a bundled template', () => {
    expect(LAYOUT_CATALOG.length).toBeGreaterThanOrEqual(12);
    expect(new Set(LAYOUT_CATALOG.map((layout) => layout.id)).size).toBe(LAYOUT_CATALOG.length);
    for (const layout of LAYOUT_CATALOG) {
      expect(layout.dependencies).toEqual([PAGE_BUILDER_SLUG]);
      expect(findFormTemplate(layout.form_template)).toBeDefined();
      expect(layout.blocks.filter((block) => block.type === 'payment_form')).toHaveLength(1);
      expect(['free', 'pro']).toContain(layout.required_plan);
      expect(findLayout(layout.id)).toBe(layout);
    }
    expect(LAYOUT_CATALOG.some((layout) => layout.required_plan === 'pro')).toBe(true);
  });

  it('lets free sites import only free layouts and Pro sites all', () => {
    expect(isLayoutAllowed({ required_plan: 'free' }, 'free')).toBe(true);
    expect(isLayoutAllowed({ required_plan: 'pro' }, 'free')).toBe(false);
    expect(isLayoutAllowed({ required_plan: 'pro' }, 'pro')).toBe(true);
  });
});
