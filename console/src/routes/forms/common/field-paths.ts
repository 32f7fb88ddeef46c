import type { Translate } from '../../../i18n/translate';
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

/** The API's (or the editor's own) bad fields placed on the builder's inputs, plus the summary's list (`t` words where each is). */
export function placeErrors(params: Record<string, string>, draft: FormDraft, t: Translate, gatewayLabels: Readonly<Record<string, string>> = {}): PlacedErrors {
  const editable = editablePaths(draft, Object.keys(gatewayLabels));
  const byPath: Record<string, string> = {};
  const summary: SummaryItem[] = [];
  for (const [param, raw] of Object.entries(params)) {
    // The API's own message, as it wrote it (it names the field in the API's words).
    const message = raw.trim() || t('forms.builder.where.notAccepted');
    const target = targetOf(param, editable);
    if (target) byPath[target] = byPath[target] ? `${byPath[target]}; ${message}` : message;
    summary.push({ where: describePath(target ?? normalisePath(param), t, draft, gatewayLabels), message, target });
  }
  return { byPath, summary };
}

/**
 * Where a path is, in the builder's words: `settings.plans.0.prices.1.amount` → "Plan 1, price 2:
 * amount". The names are ICU selects of the catalog (`forms.builder.where.setting` for a setting,
 * `forms.builder.where.part` for a part of a plan, price or payer field, by the API's segment
 * names); a segment they do not know is said as the API names it.
 */
export function describePath(path: string, t: Translate, draft?: Pick<FormDraft, 'fields'>, gatewayLabels: Readonly<Record<string, string>> = {}): string {
  const segments = normalisePath(path).split('.');
  if (segments[0] === 'settings') segments.shift();
  if (segments.length === 0) return t('forms.builder.where.settings');
  const withPart = (where: string, rest: string[]) =>
    rest.length > 0 ? t('forms.builder.where.withPart', { where, part: t('forms.builder.where.part', { part: rest.join('_'), text: rest.join(' ') }) }) : where;
  if (segments[0] === 'plans' && segments.length > 1) {
    const plan = Number(segments[1]) + 1;
    const price = segments[2] === 'prices' && segments[3] !== undefined ? Number(segments[3]) + 1 : undefined;
    const where = price === undefined ? t('forms.builder.plans.plan', { plan }) : t('forms.builder.plans.price', { plan, price });
    return withPart(where, segments.slice(price === undefined ? 2 : 4));
  }
  if (segments[0] === 'fields' && segments.length > 1) {
    const index = Number(segments[1]);
    const name = draft?.fields[index]?.name;
    const where = name ? t('forms.builder.where.payerFieldNamed', { field: index + 1, name }) : t('forms.builder.where.payerField', { field: index + 1 });
    return withPart(
      where,
      segments.slice(2).filter((segment) => !/^\d+$/.test(segment)),
    );
  }
  if (segments[0] === 'payment_methods' && segments[1]) return t('forms.builder.where.methods', { gateway: gatewayLabels[segments[1]] ?? segments[1] });
  return t('forms.builder.where.setting', { setting: segments[segments.length - 1], text: segments.join(' ') });
}
