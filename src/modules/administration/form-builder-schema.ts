import { CURRENCY_CODES } from '../../common/money/index.js';
import { CHECKOUT_POST_TYPE_PAYMENT_FORM } from '../../config/index.js';
import {
  DISPLAY_LAYOUTS,
  FIELD_TYPES,
  FREQUENCIES,
  type Frequency,
  FREQUENCY_LABELS,
  MAX_FORM_AMOUNT,
  methodLabel,
  type PaymentForm,
  SUBMIT_ACTIONS,
} from '../forms/index.js';
import { CHECKOUT_GATEWAYS, gatewayKind, gatewayMethods } from '../gateways/index.js';
import type { BuilderDataDto, BuilderFieldDto, BuilderOptionDto, BuilderSectionDto } from './form-builder.dto.js';

/**
 * The form builder's field map: which settings exist, how they are edited and validated, in which
 * section. Values are filled in per form by `buildFormBuilderData`. Limits mirror the DTO rules.
 */
type FieldSpec = Omit<BuilderFieldDto, 'input_name' | 'default' | 'value' | 'required' | 'fields'> & { required?: boolean; fields?: FieldSpec[] };
interface SectionSpec {
  id: string;
  label: string;
  groups: Array<{ id: string; label: string; fields: FieldSpec[] }>;
}

export const FIELD_NAMESPACE = CHECKOUT_POST_TYPE_PAYMENT_FORM;

const opts = (values: readonly string[], label: (value: string) => string = (value) => value): BuilderOptionDto[] =>
  values.map((value) => ({ value, label: label(value) }));
const capitalise = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replace(/[-_]/g, ' ');

const currencyNames = new Intl.DisplayNames('en', { type: 'currency' });
const CURRENCY_OPTIONS = opts(CURRENCY_CODES, (code) => `${code} (${currencyNames.of(code) ?? code})`);
const FREQUENCY_OPTIONS = opts(FREQUENCIES, (frequency) => (frequency === 'one-time' ? 'One time' : `Every ${FREQUENCY_LABELS[frequency as Frequency]}`));

const PRICE_FIELDS: FieldSpec[] = [
  { key: 'amount', type: 'amount', label: 'Amount (minor units)', required: true, min: 1, max: MAX_FORM_AMOUNT },
  { key: 'currency', type: 'select', label: 'Currency', required: true, options: CURRENCY_OPTIONS },
  { key: 'frequency', type: 'select', label: 'Billing frequency', required: true, options: FREQUENCY_OPTIONS },
  { key: 'setup_amount', type: 'amount', label: 'Setup fee (recurring prices only)', min: 0, max: MAX_FORM_AMOUNT },
  { key: 'custom_amount.min', type: 'amount', label: 'Customer-entered amount: minimum', min: 1, max: MAX_FORM_AMOUNT },
  { key: 'custom_amount.max', type: 'amount', label: 'Customer-entered amount: maximum', min: 1, max: MAX_FORM_AMOUNT },
];

const SECTIONS: SectionSpec[] = [
  {
    id: 'general',
    label: 'General',
    groups: [
      {
        id: 'form',
        label: 'Form',
        fields: [
          { key: 'title', type: 'text', label: 'Title', required: true, max_length: 200 },
          { key: 'status', type: 'select', label: 'Status', required: true, options: opts(['draft', 'publish'], capitalise) },
          { key: 'settings.display.show_title', type: 'checkbox', label: 'Show the title on the form' },
          { key: 'settings.display.description', type: 'textarea', label: 'Description', max_length: 500 },
        ],
      },
    ],
  },
  {
    id: 'payment',
    label: 'Payment',
    groups: [
      {
        id: 'plans',
        label: 'Plans and prices',
        fields: [
          {
            key: 'settings.plans',
            type: 'repeater',
            label: 'Plans',
            required: true,
            min_items: 1,
            max_items: 20,
            fields: [
              { key: 'title', type: 'text', label: 'Plan title', required: true, max_length: 100 },
              { key: 'prices', type: 'repeater', label: 'Prices', required: true, min_items: 1, max_items: 10, fields: PRICE_FIELDS },
            ],
          },
        ],
      },
      {
        id: 'payment_methods',
        label: 'Payment methods',
        // One multiselect per catalog gateway (GET /payment-gateway/catalog says more about each),
        // read when the data is built: the slices register their gateways as their modules load.
        get fields(): FieldSpec[] {
          return CHECKOUT_GATEWAYS.map((gateway) => ({
            key: `settings.payment_methods.${gateway}`,
            type: 'multiselect' as const,
            label: `${capitalise(gatewayKind(gateway))} gateway methods`,
            options: opts(gatewayMethods(gateway), methodLabel),
          }));
        },
      },
    ],
  },
  {
    id: 'fields',
    label: 'Fields',
    groups: [
      {
        id: 'form_fields',
        label: 'Form fields',
        fields: [
          {
            key: 'settings.fields',
            type: 'repeater',
            label: 'Fields (email_address is required)',
            required: true,
            min_items: 1,
            max_items: 30,
            fields: [
              { key: 'name', type: 'text', label: 'Name (lower snake_case)', required: true, max_length: 40 },
              { key: 'type', type: 'select', label: 'Type', required: true, options: opts(FIELD_TYPES, capitalise) },
              { key: 'label', type: 'text', label: 'Label', required: true, max_length: 100 },
              { key: 'required', type: 'checkbox', label: 'Required' },
              { key: 'options', type: 'list', label: 'Choices (select fields)', max_items: 50, max_length: 100 },
            ],
          },
        ],
      },
    ],
  },
  {
    id: 'confirmation',
    label: 'After payment',
    groups: [
      {
        id: 'after_payment',
        label: 'After payment',
        fields: [
          { key: 'settings.submit_actions', type: 'multiselect', label: 'Actions', options: opts(SUBMIT_ACTIONS, capitalise) },
          { key: 'settings.redirect_url', type: 'url', label: 'Redirect to (with the redirect action)', max_length: 2000 },
          { key: 'settings.success_message', type: 'textarea', label: 'Message (with the message action)', max_length: 1000 },
        ],
      },
    ],
  },
  {
    id: 'emails',
    label: 'Emails',
    groups: [
      {
        id: 'notifications',
        label: 'Notifications',
        fields: [
          { key: 'settings.email.email_to', type: 'email', label: 'Send the notification to', required: true, max_length: 254 },
          { key: 'settings.email.admin_subject', type: 'text', label: 'Notification subject', required: true, max_length: 200 },
          { key: 'settings.email.payer_subject', type: 'text', label: 'Payer confirmation subject', required: true, max_length: 200 },
          { key: 'settings.email.from_name', type: 'text', label: 'Sender name', required: true, max_length: 100 },
          { key: 'settings.email.renewal_failure_emails', type: 'checkbox', label: 'Email the payer when a subscription renewal fails' },
        ],
      },
    ],
  },
  {
    id: 'display',
    label: 'Display',
    groups: [
      {
        id: 'appearance',
        label: 'Appearance',
        fields: [
          { key: 'settings.display.button_label', type: 'text', label: 'Button label', max_length: 40 },
          { key: 'settings.display.primary_color', type: 'color', label: 'Accent colour' },
          { key: 'settings.display.layout', type: 'select', label: 'Layout', options: opts(DISPLAY_LAYOUTS, capitalise) },
        ],
      },
    ],
  },
];

type FormResource = Pick<PaymentForm, 'title' | 'status' | 'settings'>;

export interface BuilderContext {
  /** What a new form starts with */
  defaults: FormResource;
  livePreviewUrl: string;
}

export function buildFormBuilderData(form: PaymentForm, context: BuilderContext): BuilderDataDto {
  return {
    form_id: form.id,
    title: form.title,
    status: form.status,
    namespace: FIELD_NAMESPACE,
    live_preview: { url: context.livePreviewUrl, methods: ['GET', 'POST'] },
    sections: SECTIONS.map(
      (section): BuilderSectionDto => ({
        id: section.id,
        label: section.label,
        groups: section.groups.map((group) => ({
          id: group.id,
          label: group.label,
          fields: group.fields.map((spec) => toField(spec, [], { value: form, defaults: context.defaults })),
        })),
      }),
    ),
  };
}

/** Fills a field spec; without `source` (repeater item fields) only the default of a new item is given. */
function toField(spec: FieldSpec, parent: string[], source?: { value: FormResource; defaults: FormResource }): BuilderFieldDto {
  const path = [...parent, ...spec.key.split('.')];
  const { fields, required, ...rest } = spec;
  const field: BuilderFieldDto = {
    ...rest,
    input_name: `${FIELD_NAMESPACE}${path.map((segment) => `[${segment}]`).join('')}`,
    required: required ?? false,
    default: source ? (readPath(source.defaults, spec.key) ?? null) : (ITEM_DEFAULTS[spec.key] ?? null),
  };
  if (source) field.value = readPath(source.value, spec.key) ?? null;
  if (fields) field.fields = fields.map((child) => toField(child, [...path, '']));
  return field;
}

/** Defaults of the fields of a new repeater item. */
const ITEM_DEFAULTS: Record<string, unknown> = {
  title: 'New plan',
  prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }],
  amount: 1000,
  currency: 'USD',
  frequency: 'one-time',
  type: 'text',
  required: false,
};

function readPath(source: unknown, key: string): unknown {
  let value: unknown = source;
  for (const segment of key.split('.')) {
    if (!value || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
