/**
 * The feature-interest catalogs of the admin UI areas (docs/decisions.md §14): each area asks the site
 * owner which upcoming features they care about. Bundled per release; answers are kept locally
 * (and sent to FEATURES_API_URL when it is set).
 */
export interface FeatureItem {
  /** Stable tag stored with an answer: lower-case letters, digits and dashes */
  tag: string;
  name: string;
  /** Path of an illustration; null: the bundled catalog ships none */
  image: string | null;
}

export interface FeatureArea {
  slug: string;
  name: string;
  description: string;
  submit_text: string;
  features: readonly FeatureItem[];
}

const feature = (tag: string, name: string): FeatureItem => ({ tag, name, image: null });

export const FEATURE_AREAS: readonly FeatureArea[] = [
  {
    slug: 'payment-gateways',
    name: 'Payment gateways',
    description: 'Which payment options should come next? Pick the ones your customers ask for and we will let you know when they arrive.',
    submit_text: 'Notify me',
    features: [
      feature('bank-transfer', 'Bank transfer payments'),
      feature('buy-now-pay-later', 'Buy now, pay later'),
      feature('more-regional-wallets', 'More regional wallets'),
      feature('multi-currency-prices', 'Prices in several currencies'),
      feature('customer-portal', 'Customer portal for subscriptions and saved cards'),
      feature('refunds-from-admin', 'Refunds from the admin'),
    ],
  },
  {
    slug: 'templates',
    name: 'Templates',
    description: 'Which templates would save you time? Tell us what to design next.',
    submit_text: 'Send my picks',
    features: [
      feature('event-registration', 'Event registration templates'),
      feature('quote-request', 'Quote request and deposit templates'),
      feature('product-catalog', 'Small product catalog templates'),
      feature('nonprofit-campaigns', 'Fundraising campaign pages'),
      feature('template-export', 'Export and import your own templates'),
    ],
  },
  {
    slug: 'form-builder',
    name: 'Form builder',
    description: 'Which form-builder features would help you most? We build the most requested first.',
    submit_text: 'Vote for these',
    features: [
      feature('conditional-logic', 'Conditional fields'),
      feature('multi-step-forms', 'Multi-step forms'),
      feature('coupon-codes', 'Coupon codes'),
      feature('file-uploads', 'File uploads'),
      feature('quantity-fields', 'Quantity fields'),
      feature('tax-rates', 'Tax rates'),
    ],
  },
];

export const FEATURE_AREA_SLUGS = FEATURE_AREAS.map((area) => area.slug);

export function findFeatureArea(slug: string): FeatureArea | undefined {
  return FEATURE_AREAS.find((area) => area.slug === slug);
}
