import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { isCurrencyCode, isValidMinorAmount, toDecimalString, currencyRule } from '../../common/money/index.js';

/**
 * Cross-field rules of payment-form settings, as class-validator decorators so that a failure is
 * reported like any other: under the dotted path of the offending field.
 */
function rule(
  name: string,
  validate: (value: unknown, args: ValidationArguments) => boolean,
  defaultMessage: (args: ValidationArguments) => string,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: { validate, defaultMessage },
    });
  };
}

const record = (args: ValidationArguments) => args.object as Record<string, unknown>;
const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

/** On `max`: must not be below the sibling `min`. */
export function IsNotBelowSibling(sibling: string, options?: ValidationOptions): PropertyDecorator {
  return rule(
    'isNotBelowSibling',
    (value, args) => {
      const other = record(args)[sibling];
      return !isInt(value) || !isInt(other) || value >= other;
    },
    (args) => `${args.property} must not be less than ${sibling}`,
    options,
  );
}

/** On a price's `amount`: with `custom_amount` bounds present, the suggested amount lies within them. */
export function IsWithinCustomAmount(options?: ValidationOptions): PropertyDecorator {
  return rule(
    'isWithinCustomAmount',
    (value, args) => {
      const bounds = record(args).custom_amount as { min?: unknown; max?: unknown } | undefined;
      if (!bounds || typeof bounds !== 'object' || !isInt(bounds.min) || !isInt(bounds.max) || !isInt(value)) return true;
      return value >= bounds.min && value <= bounds.max;
    },
    () => 'amount must lie within custom_amount.min and custom_amount.max',
    options,
  );
}

/** On `setup_amount`: a setup fee only makes sense for a recurring price. */
export function IsOnlyForRecurring(options?: ValidationOptions): PropertyDecorator {
  return rule(
    'isOnlyForRecurring',
    (_value, args) => record(args).frequency !== 'one-time',
    () => 'setup_amount is only allowed on a recurring price',
    options,
  );
}

/** On an array of objects: `key` is unique across items. */
export function IsUniqueBy(key: string, options?: ValidationOptions): PropertyDecorator {
  return rule(
    'isUniqueBy',
    (value) => {
      if (!Array.isArray(value)) return true;
      const seen = value.map((item) => (item && typeof item === 'object' ? (item as Record<string, unknown>)[key] : undefined));
      return new Set(seen).size === seen.length;
    },
    (args) => `${args.property} must not repeat a ${key}`,
    options,
  );
}

/** On an array of objects: some item has `key` === `expected`. */
export function ContainsItemWith(key: string, expected: string, options?: ValidationOptions): PropertyDecorator {
  return rule(
    'containsItemWith',
    (value) => Array.isArray(value) && value.some((item) => item && typeof item === 'object' && (item as Record<string, unknown>)[key] === expected),
    (args) => `${args.property} must include the ${expected} field`,
    options,
  );
}

/** On a form field's `type`: the core fields keep their type (email_address is an email, names are text). */
export function MatchesCoreFieldType(coreTypes: Readonly<Record<string, string>>, options?: ValidationOptions): PropertyDecorator {
  return rule(
    'matchesCoreFieldType',
    (value, args) => {
      const name = record(args).name;
      return typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(coreTypes, name) || coreTypes[name] === value;
    },
    (args) => `type of the ${String(record(args).name)} field must be ${coreTypes[String(record(args).name)]}`,
    options,
  );
}

/** On `payment_methods`: at least one method of at least one gateway, or nobody could pay. */
export function HasSomePaymentMethod(options?: ValidationOptions): PropertyDecorator {
  return rule(
    'hasSomePaymentMethod',
    (value) => !!value && typeof value === 'object' && Object.values(value).some((methods) => Array.isArray(methods) && methods.length > 0),
    () => 'payment_methods must enable at least one method',
    options,
  );
}

/**
 * On an amount: a multiple of the smallest step the gateway charges in the sibling `currency`
 * (three-decimal currencies end in 0, ISK is whole krónur), so a saved form can always be paid.
 */
export function IsChargeableIn(currencyField: string, options?: ValidationOptions): PropertyDecorator {
  return rule(
    'isChargeableIn',
    (value, args) => {
      const currency = record(args)[currencyField];
      return !isInt(value) || !isCurrencyCode(currency) || isValidMinorAmount(value, currency);
    },
    (args) => {
      const currency = String(record(args)[currencyField]);
      return `${args.property} must be a multiple of ${toDecimalString(currencyRule(currency).step, currency)} ${currency} in minor units`;
    },
    options,
  );
}

/**
 * On `translations`: every field version names a field of the form (by `name`) and every plan title a
 * plan (by `plan_index`), so no version is kept for something the form does not have; a version's
 * choices (`options`) are of a select field, one per choice, as they are matched by position. The
 * first that does not is named in the message; malformed entries are left to their own rules.
 */
export function NamesFieldsAndPlansOfForm(options?: ValidationOptions): PropertyDecorator {
  const strayOf = (value: unknown, args: ValidationArguments): string | null => {
    if (!Array.isArray(value)) return null;
    const settings = record(args);
    // Each field's name, with the number of its choices (null: not a select field)
    const choices = new Map<unknown, number | null>();
    for (const field of Array.isArray(settings.fields) ? settings.fields : []) {
      if (!field || typeof field !== 'object') continue;
      const { name, type, options } = field as Record<string, unknown>;
      choices.set(name, type === 'select' && Array.isArray(options) ? options.length : null);
    }
    const planCount = Array.isArray(settings.plans) ? settings.plans.length : 0;
    for (const [at, entry] of value.entries()) {
      if (!entry || typeof entry !== 'object') continue;
      const { fields, plans } = entry as Record<string, unknown>;
      if (Array.isArray(fields)) {
        for (const [i, field] of fields.entries()) {
          if (!field || typeof field !== 'object') continue;
          const { name, options } = field as Record<string, unknown>;
          if (typeof name !== 'string') continue;
          if (!choices.has(name)) return `translations.${at}.fields.${i}.name must name a field of this form (no field ${name})`;
          const count = choices.get(name);
          if (Array.isArray(options) && count === null) return `translations.${at}.fields.${i}.options are for a select field (${name} is not one)`;
          if (Array.isArray(options) && options.length !== count) return `translations.${at}.fields.${i}.options must give one label per choice of ${name} (it has ${count})`;
        }
      }
      if (Array.isArray(plans)) {
        for (const [i, plan] of plans.entries()) {
          const index = plan && typeof plan === 'object' ? (plan as Record<string, unknown>).plan_index : undefined;
          if (isInt(index) && index >= planCount) return `translations.${at}.plans.${i}.plan_index must name a plan of this form (it has ${planCount})`;
        }
      }
    }
    return null;
  };
  return rule('namesFieldsAndPlansOfForm', (value, args) => strayOf(value, args) === null, (args) => strayOf(args.value, args) ?? 'translations must name fields and plans of this form', options);
}
