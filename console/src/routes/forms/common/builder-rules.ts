import type { components } from '../../../../../clients/typescript/index';

export type BuilderData = components['schemas']['BuilderDataDto'];
type BuilderField = components['schemas']['BuilderFieldDto'];
export type BuilderOption = components['schemas']['BuilderOptionDto'];

/**
 * The settings whose rules the editor reads (limits, choices, new-item defaults). A contract test
 * (test/console/builder-data-contract.spec.ts) checks that the server's field map has each one.
 */
export const RULE_KEYS = {
  title: 'title',
  description: 'settings.display.description',
  buttonLabel: 'settings.display.button_label',
  layout: 'settings.display.layout',
  primaryColor: 'settings.display.primary_color',
  plans: 'settings.plans',
  planTitle: 'settings.plans[].title',
  prices: 'settings.plans[].prices',
  amount: 'settings.plans[].prices[].amount',
  currency: 'settings.plans[].prices[].currency',
  frequency: 'settings.plans[].prices[].frequency',
  setupFee: 'settings.plans[].prices[].setup_amount',
  customMin: 'settings.plans[].prices[].custom_amount.min',
  customMax: 'settings.plans[].prices[].custom_amount.max',
  fields: 'settings.fields',
  fieldName: 'settings.fields[].name',
  fieldType: 'settings.fields[].type',
  fieldLabel: 'settings.fields[].label',
  fieldOptions: 'settings.fields[].options',
  submitActions: 'settings.submit_actions',
  redirectUrl: 'settings.redirect_url',
  successMessage: 'settings.success_message',
  emailTo: 'settings.email.email_to',
  adminSubject: 'settings.email.admin_subject',
  payerSubject: 'settings.email.payer_subject',
  fromName: 'settings.email.from_name',
} as const;

/** What the server says about one setting: its limits, choices and the value a new item starts with. */
export interface FieldRule {
  label: string;
  type: BuilderField['type'];
  required: boolean;
  options: BuilderOption[];
  min?: number;
  max?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default: unknown;
}

/**
 * The builder's field map (`GET …/builder-data`) flattened to one rule per setting, keyed by its
 * path with `[]` for "any item of a repeater": `title`, `settings.plans`, `settings.plans[].title`,
 * `settings.plans[].prices[].amount`, `settings.fields[].name`. The editor takes its limits
 * (lengths, bounds, item counts) and choices (currencies, frequencies, field types, actions,
 * layouts) from here, so they follow the server's validation rules instead of copying them.
 */
export class BuilderRules {
  private readonly rules = new Map<string, FieldRule>();

  constructor(data: Pick<BuilderData, 'sections'>) {
    for (const section of data.sections) for (const group of section.groups) for (const field of group.fields) this.add(field, '');
  }

  get(key: string): FieldRule | undefined {
    return this.rules.get(key);
  }

  /** The choices of a select or multiselect setting (none when the server lists none). */
  options(key: string): BuilderOption[] {
    return this.rules.get(key)?.options ?? [];
  }

  maxLength(key: string): number | undefined {
    return this.rules.get(key)?.maxLength;
  }

  /** Whether one more item may be added to a repeater of `count` items. */
  canAdd(key: string, count: number): boolean {
    const max = this.rules.get(key)?.maxItems;
    return max === undefined || count < max;
  }

  /** Whether an item may be removed from a repeater of `count` items (never the last one). */
  canRemove(key: string, count: number): boolean {
    return count > Math.max(1, this.rules.get(key)?.minItems ?? 1);
  }

  /** Every key with a rule (for tests and diagnostics). */
  keys(): string[] {
    return [...this.rules.keys()];
  }

  private add(field: BuilderField, parent: string): void {
    const key = parent ? `${parent}.${field.key}` : field.key;
    this.rules.set(key, {
      label: field.label,
      type: field.type,
      required: field.required,
      options: field.options ?? [],
      min: field.min,
      max: field.max,
      maxLength: field.max_length,
      minItems: field.min_items,
      maxItems: field.max_items,
      default: field.default,
    });
    for (const child of field.fields ?? []) this.add(child, `${key}[]`);
  }
}
