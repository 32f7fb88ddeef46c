import { type FormDraft, ONE_TIME } from './form-draft';

/**
 * Where a validation error belongs in the builder. The API names each bad field in `data.params`
 * by its dotted path (`settings.plans.0.prices.1.amount`; `[0]` is read the same way); every input
 * of the builder has the id `inputId(path)` of the path it edits, and every group of inputs
 * (a plan's prices, the payer fields, a gateway's methods) the id of its own path.
 */

/** `settings.plans[0].prices[1].amount` → `settings.plans.0.prices.1.amount`. */
export function normalisePath(path: string): string {
  return path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
}

/** The DOM id of the input (or group) that edits `path`. */
export function inputId(path: string): string {
  return `f-${normalisePath(path).replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

/** The id of the message shown under the input of `path` (its aria-describedby). */
export function errorId(path: string): string {
  return `${inputId(path)}-error`;
}

/** Every path that has an input or a group in the builder for this draft. */
export function editablePaths(draft: FormDraft, gateways: readonly string[]): Set<string> {
  const paths = new Set<string>([
    'title',
    'settings',
    'settings.display.description',
    'settings.display.show_title',
    'settings.display.button_label',
    'settings.display.primary_color',
    'settings.display.layout',
    'settings.display',
    'settings.plans',
    'settings.payment_methods',
    'settings.fields',
    'settings.submit_actions',
    'settings.redirect_url',
    'settings.success_message',
    'settings.email',
    'settings.email.email_to',
    'settings.email.admin_subject',
    'settings.email.payer_subject',
    'settings.email.from_name',
    'settings.email.renewal_failure_emails',
  ]);
  draft.plans.forEach((plan, p) => {
    paths.add(`settings.plans.${p}`);
    paths.add(`settings.plans.${p}.title`);
    paths.add(`settings.plans.${p}.prices`);
    plan.prices.forEach((price, i) => {
      const at = `settings.plans.${p}.prices.${i}`;
      for (const name of ['', '.amount', '.currency', '.frequency']) paths.add(at + name);
      if (price.frequency !== ONE_TIME) paths.add(`${at}.setup_amount`);
      if (price.customAmount) for (const name of ['.custom_amount', '.custom_amount.min', '.custom_amount.max']) paths.add(at + name);
    });
  });
  for (const gateway of gateways) paths.add(`settings.payment_methods.${gateway}`);
  draft.fields.forEach((field, f) => {
    for (const name of ['', '.name', '.type', '.label', '.required']) paths.add(`settings.fields.${f}${name}`);
    if (field.type === 'select') paths.add(`settings.fields.${f}.options`);
  });
  return paths;
}

/**
 * The path whose input shows the error named `param`: the path itself, or the nearest enclosing
 * one that has an input or group (`settings.fields.2.options.0` → `settings.fields.2.options`;
 * `settings.payment_methods.gateway_x` → `settings.payment_methods`). Null when nothing encloses it.
 */
export function targetOf(param: string, editable: ReadonlySet<string>): string | null {
  const segments = normalisePath(param).split('.');
  while (segments.length > 0) {
    const path = segments.join('.');
    if (editable.has(path)) return path;
    segments.pop();
  }
  return null;
}

export interface SummaryItem {
  /** What the summary says: where ("Plan 1, price 2: amount") and what is wrong */
  where: string;
  message: string;
  /** The path of the input to go to, or null when no input shows it */
  target: string | null;
}

export interface PlacedErrors {
  /** Path of an input or group → its message(s) */
  byPath: Record<string, string>;
  summary: SummaryItem[];
}

/** The API's (or the editor's own) bad fields placed on the builder's inputs, plus the summary's list. */
export function placeErrors(params: Record<string, string>, draft: FormDraft, gatewayLabels: Readonly<Record<string, string>> = {}): PlacedErrors {
  const editable = editablePaths(draft, Object.keys(gatewayLabels));
  const byPath: Record<string, string> = {};
  const summary: SummaryItem[] = [];
  for (const [param, raw] of Object.entries(params)) {
    const message = readable(raw);
    const target = targetOf(param, editable);
    if (target) byPath[target] = byPath[target] ? `${byPath[target]}; ${message}` : message;
    summary.push({ where: describePath(target ?? normalisePath(param), draft, gatewayLabels), message, target });
  }
  return { byPath, summary };
}

/** The API's own message, as it wrote it (it names the field in the API's words). */
function readable(message: string): string {
  return message.trim() || 'This value is not accepted.';
}

const NAMES: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  show_title: 'Show the title',
  button_label: 'Button label',
  primary_color: 'Accent colour',
  layout: 'Layout',
  display: 'Display',
  amount: 'amount',
  currency: 'currency',
  frequency: 'billing frequency',
  setup_amount: 'setup fee',
  custom_amount: 'payer-entered amount',
  min: 'minimum',
  max: 'maximum',
  name: 'name',
  type: 'type',
  label: 'label',
  required: 'required',
  options: 'choices',
  plans: 'Plans and prices',
  prices: 'prices',
  payment_methods: 'Payment methods',
  fields: 'Payer fields',
  submit_actions: 'After payment actions',
  redirect_url: 'Redirect address',
  success_message: 'Success message',
  email: 'Emails',
  email_to: 'Notification address',
  admin_subject: 'Notification subject',
  payer_subject: 'Payer confirmation subject',
  from_name: 'Sender name',
  renewal_failure_emails: 'Failed-renewal emails to the payer',
};

/** Where a path is, in the builder's words: `settings.plans.0.prices.1.amount` → "Plan 1, price 2: amount". */
export function describePath(path: string, draft?: Pick<FormDraft, 'fields'>, gatewayLabels: Readonly<Record<string, string>> = {}): string {
  const segments = normalisePath(path).split('.');
  if (segments[0] === 'settings') segments.shift();
  if (segments.length === 0) return 'Settings';
  if (segments[0] === 'plans' && segments.length > 1) {
    const where = [`Plan ${Number(segments[1]) + 1}`];
    if (segments[2] === 'prices' && segments[3] !== undefined) where.push(`price ${Number(segments[3]) + 1}`);
    const rest = segments.slice(segments[2] === 'prices' && segments[3] !== undefined ? 4 : 2).map((segment) => (segment === 'title' ? 'title' : (NAMES[segment] ?? segment)));
    return rest.length > 0 ? `${where.join(', ')}: ${rest.join(' ')}` : where.join(', ');
  }
  if (segments[0] === 'fields' && segments.length > 1) {
    const index = Number(segments[1]);
    const name = draft?.fields[index]?.name;
    const where = `Payer field ${index + 1}${name ? ` (${name})` : ''}`;
    const rest = segments.slice(2).filter((segment) => !/^\d+$/.test(segment)).map((segment) => NAMES[segment] ?? segment);
    return rest.length > 0 ? `${where}: ${rest.join(' ')}` : where;
  }
  if (segments[0] === 'payment_methods' && segments[1]) return `Payment methods (${gatewayLabels[segments[1]] ?? segments[1]})`;
  const last = segments[segments.length - 1];
  return NAMES[last] ?? segments.join(' ');
}
