import type { FormEmailSettings, FormField, PaymentFormSettings } from '../forms/index.js';

/** One of the 10 bundled payment-form setting templates (docs/decisions.md §11). */
export interface BundledFormTemplate {
  slug: string;
  name: string;
  description: string;
  category: 'payments' | 'donations' | 'subscriptions' | 'events' | 'services' | 'commerce';
  settings: PaymentFormSettings;
}

// Importing a template sets `email_to` to the importing user's address; this is only the template's stand-in.
const TEMPLATE_EMAIL_TO = 'owner@example.com';

const CORE_FIELDS: FormField[] = [
  { name: 'email_address', type: 'email', label: 'Email address', required: true },
  { name: 'first_name', type: 'text', label: 'First name', required: true },
  { name: 'last_name', type: 'text', label: 'Last name', required: true },
];

function emails(what: string): FormEmailSettings {
  return {
    email_to: TEMPLATE_EMAIL_TO,
    admin_subject: `New ${what}: {amount} from {payer_name}`,
    payer_subject: `Thank you for your ${what} to {form_title}`,
    from_name: 'Payments',
  };
}

const CARDS_AND_WALLET = { gateway_a: ['ccard'], gateway_b: ['standard_checkout'] };
const CARDS_ONLY = { gateway_a: ['ccard', 'device_wallet_1', 'device_wallet_2'] };

/**
 * The bundled templates, in catalog order. `simple-payment`, `donation` and `subscription` have
 * the fixed plans of docs/decisions.md §11 that clients and tests rely on; do not change those.
 */
export const BUNDLED_FORM_TEMPLATES: readonly BundledFormTemplate[] = [
  {
    slug: 'simple-payment',
    name: 'Simple payment',
    description: 'One fixed one-time payment.',
    category: 'payments',
    settings: {
      plans: [{ title: 'Payment', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
      payment_methods: CARDS_AND_WALLET,
      fields: CORE_FIELDS,
      submit_actions: ['email', 'message'],
      email: emails('payment'),
      display: { button_label: 'Pay now', primary_color: '#2563eb', layout: 'stacked', show_title: true },
      success_message: 'Thank you! Your payment was received.',
    },
  },
  {
    slug: 'donation',
    name: 'Donation',
    description: 'The donor chooses the amount.',
    category: 'donations',
    settings: {
      plans: [{ title: 'Donation', prices: [{ amount: 2500, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 1000000 } }] }],
      payment_methods: CARDS_AND_WALLET,
      fields: [...CORE_FIELDS.slice(0, 2), { ...CORE_FIELDS[2], required: false }, { name: 'dedication', type: 'textarea', label: 'Dedicate this gift (optional)', required: false }],
      submit_actions: ['email', 'message'],
      email: emails('donation'),
      display: { button_label: 'Donate', primary_color: '#16a34a', layout: 'stacked', show_title: true, description: 'Every gift helps.' },
      success_message: 'Thank you for your generosity!',
    },
  },
  {
    slug: 'subscription',
    name: 'Subscription',
    description: 'Monthly or yearly billing.',
    category: 'subscriptions',
    settings: {
      plans: [
        { title: 'Monthly', prices: [{ amount: 999, currency: 'USD', frequency: 'm_1' }] },
        { title: 'Yearly', prices: [{ amount: 9999, currency: 'USD', frequency: 'y_1' }] },
      ],
      payment_methods: { gateway_a: ['ccard', 'sepa'] },
      fields: CORE_FIELDS,
      submit_actions: ['email', 'message'],
      email: emails('subscription'),
      display: { button_label: 'Subscribe', primary_color: '#7c3aed', layout: 'stacked', show_title: true },
      success_message: 'Your subscription is active.',
    },
  },
  {
    slug: 'membership',
    name: 'Membership',
    description: 'Tiered memberships with a joining fee.',
    category: 'subscriptions',
    settings: {
      plans: [
        { title: 'Basic', prices: [{ amount: 1500, currency: 'USD', frequency: 'm_1' }] },
        { title: 'Premium', prices: [{ amount: 4900, currency: 'USD', frequency: 'm_1', setup_amount: 2500 }] },
        { title: 'Annual patron', prices: [{ amount: 49000, currency: 'USD', frequency: 'y_1' }] },
      ],
      payment_methods: { gateway_a: ['ccard', 'sepa', 'device_wallet_1'] },
      fields: [...CORE_FIELDS, { name: 'phone', type: 'phone', label: 'Phone', required: false }],
      submit_actions: ['email', 'redirect'],
      email: emails('membership'),
      display: { button_label: 'Join now', primary_color: '#0f766e', layout: 'stacked', show_title: true },
      redirect_url: 'https://example.com/welcome',
    },
  },
  {
    slug: 'event-ticket',
    name: 'Event ticket',
    description: 'Ticket types for an event, with attendee details.',
    category: 'events',
    settings: {
      plans: [
        { title: 'General admission', prices: [{ amount: 4500, currency: 'USD', frequency: 'one-time' }] },
        { title: 'VIP', prices: [{ amount: 12000, currency: 'USD', frequency: 'one-time' }] },
      ],
      payment_methods: CARDS_AND_WALLET,
      fields: [
        ...CORE_FIELDS,
        { name: 'phone', type: 'phone', label: 'Phone', required: true },
        { name: 'dietary_needs', type: 'select', label: 'Dietary needs', required: false, options: ['None', 'Vegetarian', 'Vegan', 'Gluten-free'] },
      ],
      submit_actions: ['email', 'message'],
      email: emails('ticket order'),
      display: { button_label: 'Buy tickets', primary_color: '#db2777', layout: 'stacked', show_title: true },
      success_message: 'Your tickets are booked. See you there!',
    },
  },
  {
    slug: 'invoice',
    name: 'Invoice',
    description: 'Customers pay an invoice by number and amount.',
    category: 'payments',
    settings: {
      plans: [{ title: 'Invoice payment', prices: [{ amount: 10000, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 5000000 } }] }],
      payment_methods: { gateway_a: ['ccard', 'sepa'], gateway_b: ['standard_checkout'] },
      fields: [
        ...CORE_FIELDS,
        { name: 'invoice_number', type: 'text', label: 'Invoice number', required: true },
        { name: 'company', type: 'text', label: 'Company', required: false },
      ],
      submit_actions: ['email', 'message'],
      email: { ...emails('invoice payment'), admin_subject: 'Invoice paid: {amount} from {payer_name}' },
      display: { button_label: 'Pay invoice', primary_color: '#334155', layout: 'compact', show_title: true },
      success_message: 'Thank you, your invoice is paid.',
    },
  },
  {
    slug: 'consultation',
    name: 'Consultation',
    description: 'Book and pay for a call.',
    category: 'services',
    settings: {
      plans: [
        { title: '30-minute call', prices: [{ amount: 7500, currency: 'USD', frequency: 'one-time' }] },
        { title: '60-minute call', prices: [{ amount: 14000, currency: 'USD', frequency: 'one-time' }] },
      ],
      payment_methods: CARDS_ONLY,
      fields: [
        ...CORE_FIELDS,
        { name: 'phone', type: 'phone', label: 'Phone', required: false },
        { name: 'preferred_time', type: 'select', label: 'Preferred time', required: true, options: ['Morning', 'Afternoon', 'Evening'] },
        { name: 'topic', type: 'textarea', label: 'What would you like to discuss?', required: false },
      ],
      submit_actions: ['email', 'message'],
      email: emails('booking'),
      display: { button_label: 'Book and pay', primary_color: '#ea580c', layout: 'stacked', show_title: true },
      success_message: 'Booked! We will email you to confirm the time.',
    },
  },
  {
    slug: 'course',
    name: 'Online course',
    description: 'Pay in full or monthly for course access.',
    category: 'commerce',
    settings: {
      plans: [
        { title: 'Pay in full', prices: [{ amount: 29900, currency: 'EUR', frequency: 'one-time' }] },
        { title: 'Monthly access', prices: [{ amount: 2900, currency: 'EUR', frequency: 'm_1' }] },
      ],
      payment_methods: { gateway_a: ['ccard', 'sepa', 'device_wallet_1', 'device_wallet_2'] },
      fields: [...CORE_FIELDS, { name: 'accept_terms', type: 'checkbox', label: 'I accept the course terms', required: true }],
      submit_actions: ['email', 'redirect'],
      email: emails('enrolment'),
      display: { button_label: 'Enrol', primary_color: '#4f46e5', layout: 'stacked', show_title: true },
      redirect_url: 'https://example.com/course/start',
    },
  },
  {
    slug: 'pre-order',
    name: 'Pre-order',
    description: 'Take payment now for a product that ships later.',
    category: 'commerce',
    settings: {
      plans: [{ title: 'Pre-order', prices: [{ amount: 5900, currency: 'USD', frequency: 'one-time' }] }],
      payment_methods: CARDS_AND_WALLET,
      fields: [
        ...CORE_FIELDS,
        { name: 'shipping_address', type: 'textarea', label: 'Shipping address', required: true },
        { name: 'quantity', type: 'number', label: 'Quantity', required: true },
      ],
      submit_actions: ['email', 'message'],
      email: emails('pre-order'),
      display: { button_label: 'Pre-order now', primary_color: '#b45309', layout: 'stacked', show_title: true, description: 'Ships in the spring.' },
      success_message: 'Your pre-order is confirmed. We will email you when it ships.',
    },
  },
  {
    slug: 'tip-jar',
    name: 'Tip jar',
    description: 'Quick tips in three sizes, or any amount.',
    category: 'donations',
    settings: {
      plans: [
        {
          title: 'Tip',
          prices: [
            { amount: 300, currency: 'USD', frequency: 'one-time' },
            { amount: 500, currency: 'USD', frequency: 'one-time' },
            { amount: 1000, currency: 'USD', frequency: 'one-time' },
            { amount: 500, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 50000 } },
          ],
        },
      ],
      payment_methods: CARDS_AND_WALLET,
      fields: [CORE_FIELDS[0], { ...CORE_FIELDS[1], required: false }, { name: 'note', type: 'text', label: 'Leave a note', required: false }],
      submit_actions: ['message'],
      email: emails('tip'),
      display: { button_label: 'Send tip', primary_color: '#f59e0b', layout: 'compact', show_title: true },
      success_message: 'Thanks for the tip!',
    },
  },
];

const BY_SLUG = new Map(BUNDLED_FORM_TEMPLATES.map((template) => [template.slug, template]));

export function findFormTemplate(slug: string): BundledFormTemplate | undefined {
  return BY_SLUG.get(slug);
}
