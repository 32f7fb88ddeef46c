import type { CheckoutPlan } from '../../config/index.js';
import { PAGE_BUILDER_PLUGIN } from '../plugin/index.js';

/** Slug of the page-builder plugin every layout depends on (the only slug /plugin/install accepts). */
export const PAGE_BUILDER_SLUG = PAGE_BUILDER_PLUGIN.slug;

export type LayoutBlock =
  | { type: 'hero'; heading: string; text: string }
  | { type: 'payment_form' }
  | { type: 'features'; items: string[] }
  | { type: 'testimonial'; quote: string; author: string }
  | { type: 'faq'; items: Array<{ question: string; answer: string }> }
  | { type: 'text'; text: string };

/** A full-page layout for the page-builder plugin: a page built around one bundled form template. */
export interface PageLayout {
  id: string;
  name: string;
  description: string;
  category: string;
  /** Lowest plan that may import it */
  required_plan: CheckoutPlan;
  dependencies: readonly string[];
  /** Slug of the bundled form template the page embeds */
  form_template: string;
  accent_color: string;
  blocks: readonly LayoutBlock[];
}

const deps = [PAGE_BUILDER_SLUG] as const;
const form = { type: 'payment_form' } as const;

export const LAYOUT_CATALOG: readonly PageLayout[] = [
  {
    id: 'simple-checkout-page',
    name: 'Simple checkout page',
    description: 'A clean page with a headline and a single payment form.',
    category: 'payments',
    required_plan: 'free',
    dependencies: deps,
    form_template: 'simple-payment',
    accent_color: '#2563eb',
    blocks: [{ type: 'hero', heading: 'Complete your payment', text: 'Secure checkout in under a minute.' }, form],
  },
  {
    id: 'donation-landing',
    name: 'Donation landing page',
    description: 'Story, impact figures and a donation form.',
    category: 'donations',
    required_plan: 'free',
    dependencies: deps,
    form_template: 'donation',
    accent_color: '#16a34a',
    blocks: [
      { type: 'hero', heading: 'Help us reach our goal', text: 'Your gift goes straight to the people who need it.' },
      { type: 'features', items: ['100% of gifts fund the programme', 'Tax receipt by email', 'Cancel recurring gifts anytime'] },
      form,
      { type: 'testimonial', quote: 'The support changed our neighbourhood.', author: 'A volunteer' },
    ],
  },
  {
    id: 'saas-pricing',
    name: 'Subscription pricing',
    description: 'Monthly and yearly plans side by side with an FAQ.',
    category: 'subscriptions',
    required_plan: 'free',
    dependencies: deps,
    form_template: 'subscription',
    accent_color: '#7c3aed',
    blocks: [
      { type: 'hero', heading: 'Simple pricing', text: 'Pick monthly or save with yearly billing.' },
      form,
      {
        type: 'faq',
        items: [
          { question: 'Can I cancel?', answer: 'Yes, at any time from your account.' },
          { question: 'Do you offer refunds?', answer: 'Within 14 days of your first payment.' },
        ],
      },
    ],
  },
  {
    id: 'membership-signup',
    name: 'Membership sign-up',
    description: 'Tier comparison and a join form.',
    category: 'subscriptions',
    required_plan: 'free',
    dependencies: deps,
    form_template: 'membership',
    accent_color: '#0f766e',
    blocks: [
      { type: 'hero', heading: 'Become a member', text: 'Three tiers, one community.' },
      { type: 'features', items: ['Members-only events', 'Monthly newsletter', 'Discounts with partners'] },
      form,
    ],
  },
  {
    id: 'event-registration',
    name: 'Event registration',
    description: 'Event details, agenda and ticket sales.',
    category: 'events',
    required_plan: 'free',
    dependencies: deps,
    form_template: 'event-ticket',
    accent_color: '#db2777',
    blocks: [
      { type: 'hero', heading: 'Join us live', text: 'One day of talks, workshops and good company.' },
      { type: 'text', text: 'Doors open at 9:00. Lunch and refreshments are included with every ticket.' },
      form,
    ],
  },
  {
    id: 'invoice-portal',
    name: 'Invoice payment portal',
    description: 'Let clients pay invoices by number.',
    category: 'payments',
    required_plan: 'free',
    dependencies: deps,
    form_template: 'invoice',
    accent_color: '#334155',
    blocks: [{ type: 'hero', heading: 'Pay an invoice', text: 'Enter your invoice number and the amount due.' }, form],
  },
  {
    id: 'consulting-booking',
    name: 'Consultation booking',
    description: 'Services, testimonial and a paid booking form.',
    category: 'services',
    required_plan: 'free',
    dependencies: deps,
    form_template: 'consultation',
    accent_color: '#ea580c',
    blocks: [
      { type: 'hero', heading: 'Book a consultation', text: 'Straight answers from an expert.' },
      { type: 'testimonial', quote: 'Worth every minute.', author: 'A client' },
      form,
    ],
  },
  {
    id: 'creator-tip-page',
    name: 'Creator tip page',
    description: 'A short thank-you note and a tip jar.',
    category: 'donations',
    required_plan: 'free',
    dependencies: deps,
    form_template: 'tip-jar',
    accent_color: '#f59e0b',
    blocks: [{ type: 'hero', heading: 'Enjoying my work?', text: 'Tips keep the lights on.' }, form],
  },
  {
    id: 'online-course-sales',
    name: 'Online course sales page',
    description: 'Curriculum, instructor note, FAQ and enrolment.',
    category: 'commerce',
    required_plan: 'pro',
    dependencies: deps,
    form_template: 'course',
    accent_color: '#4f46e5',
    blocks: [
      { type: 'hero', heading: 'Learn it properly', text: 'Twelve modules, lifetime access.' },
      { type: 'features', items: ['12 video modules', 'Exercises with solutions', 'Certificate of completion'] },
      { type: 'testimonial', quote: 'The clearest course I have taken.', author: 'A student' },
      form,
      { type: 'faq', items: [{ question: 'How long do I have access?', answer: 'For as long as the course exists.' }] },
    ],
  },
  {
    id: 'product-pre-order',
    name: 'Product pre-order launch',
    description: 'Launch page with feature list and pre-order form.',
    category: 'commerce',
    required_plan: 'pro',
    dependencies: deps,
    form_template: 'pre-order',
    accent_color: '#b45309',
    blocks: [
      { type: 'hero', heading: 'Be the first to get it', text: 'Reserve yours today; it ships in the spring.' },
      { type: 'features', items: ['Early-bird price', 'Free shipping', 'Cancel before it ships'] },
      form,
    ],
  },
  {
    id: 'nonprofit-campaign',
    name: 'Nonprofit campaign',
    description: 'Campaign story with milestones and a donation form.',
    category: 'donations',
    required_plan: 'pro',
    dependencies: deps,
    form_template: 'donation',
    accent_color: '#15803d',
    blocks: [
      { type: 'hero', heading: 'Clean water for every school', text: 'Join 2,000 donors this season.' },
      { type: 'text', text: 'Every 25 dollars funds a filter that lasts five years.' },
      { type: 'features', items: ['Milestone 1: 50 schools', 'Milestone 2: 120 schools', 'Milestone 3: every school in the region'] },
      form,
    ],
  },
  {
    id: 'agency-retainer',
    name: 'Agency retainer',
    description: 'Monthly retainer packages for an agency.',
    category: 'services',
    required_plan: 'pro',
    dependencies: deps,
    form_template: 'membership',
    accent_color: '#0e7490',
    blocks: [
      { type: 'hero', heading: 'Your team, on call', text: 'Design and development hours every month.' },
      { type: 'features', items: ['Dedicated project lead', 'Weekly reports', 'Roll over unused hours'] },
      form,
    ],
  },
  {
    id: 'webinar-registration',
    name: 'Webinar registration',
    description: 'Paid webinar sign-up with speaker highlight.',
    category: 'events',
    required_plan: 'pro',
    dependencies: deps,
    form_template: 'event-ticket',
    accent_color: '#9333ea',
    blocks: [
      { type: 'hero', heading: 'Live webinar', text: 'Ninety minutes, recording included.' },
      { type: 'testimonial', quote: 'Packed with practical advice.', author: 'A past attendee' },
      form,
    ],
  },
  {
    id: 'charity-gala',
    name: 'Charity gala',
    description: 'Gala tickets and sponsorships on one page.',
    category: 'events',
    required_plan: 'pro',
    dependencies: deps,
    form_template: 'event-ticket',
    accent_color: '#be123c',
    blocks: [
      { type: 'hero', heading: 'An evening for a good cause', text: 'Dinner, music and an auction.' },
      { type: 'text', text: 'All proceeds support the children’s hospital.' },
      form,
    ],
  },
];

const BY_ID = new Map(LAYOUT_CATALOG.map((layout) => [layout.id, layout]));

export function findLayout(id: string): PageLayout | undefined {
  return BY_ID.get(id);
}

/** Free sites see the free layouts; Pro sites see all. */
export function isLayoutAllowed(layout: Pick<PageLayout, 'required_plan'>, plan: CheckoutPlan): boolean {
  return layout.required_plan === 'free' || plan === 'pro';
}
