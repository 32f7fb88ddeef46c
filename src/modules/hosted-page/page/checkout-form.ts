import { type ChosenMethod, type ChosenPrice, type PayerDetails, pageLocale, text } from '../../../common/browser-driver/index.js';
import { type FieldError, PayerError } from './payer-error.js';

type FieldControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** Request fields that are no input of the payer: a refusal naming them is about the method or the form. */
const METHOD_PARAMS = new Set(['payment_gateway', 'payment_method', 'plan_index', 'price_index']);

/**
 * The form as the renderer drew it (the markup contract, docs/hosted-page.md): the chosen price
 * and method, the amounts, the payer's fields and their messages. Reads the page, never an API.
 */
export class CheckoutForm {
  constructor(readonly element: HTMLFormElement) {}

  selectedPrice(): HTMLInputElement | null {
    return this.element.querySelector<HTMLInputElement>('input[name="price"]:checked');
  }

  selectedMethod(): HTMLInputElement | null {
    return this.element.querySelector<HTMLInputElement>('input[name="method"]:checked');
  }

  customAmountInput(price: HTMLInputElement): HTMLInputElement | null {
    return this.element.querySelector<HTMLInputElement>(`.custom-amount[data-for="${price.id}"] input`);
  }

  /** An amount in minor units as the price's currency shows it. */
  money(minor: number, price: HTMLInputElement): string {
    const digits = Number(price.dataset.displayDigits || price.dataset.exponent);
    const exponent = Number(price.dataset.exponent);
    const locale = pageLocale();
    return new Intl.NumberFormat(locale === 'en' ? 'en-US' : locale, { style: 'currency', currency: price.dataset.currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(minor / Math.pow(10, exponent));
  }

  /** The customer-entered amount in minor units, or null while the input holds none (the server checks the bounds). */
  customAmount(price: HTMLInputElement): number | null {
    const input = this.customAmountInput(price);
    const exponent = Number(price.dataset.exponent);
    const typed = String(input?.value || '').trim();
    if (!/^\d+([.,]\d+)?$/.test(typed)) return null;
    const parts = typed.replace(',', '.').split('.');
    const fraction = (parts[1] || '').padEnd(exponent, '0');
    if (fraction.length > exponent) return null;
    return Number(parts[0]) * Math.pow(10, exponent) + Number(fraction || '0');
  }

  /** What the chosen price charges now, in minor units (a custom amount as entered; null while unreadable). */
  chosenAmount(price: HTMLInputElement): number | null {
    return price.dataset.customMin === undefined ? Number(price.dataset.amount) : this.customAmount(price);
  }

  chosenPrice(price: HTMLInputElement): ChosenPrice {
    return {
      id: price.id,
      currency: price.dataset.currency ?? '',
      recurring: price.dataset.frequency !== 'one-time',
      amount: this.chosenAmount(price),
      customMin: price.dataset.customMin === undefined ? null : Number(price.dataset.customMin),
    };
  }

  chosenMethod(method: HTMLInputElement): ChosenMethod {
    return {
      gateway: method.dataset.gateway ?? '',
      method: method.dataset.method ?? '',
      value: method.value,
      options: JSON.parse(method.dataset.driverOptions || '{}') as Record<string, unknown>,
    };
  }

  /** An amount of the chosen price as the payer read it on the button ("$9.00 / month"). */
  chargedText(amount: number, currency: string): string {
    const price = this.selectedPrice();
    if (!price || price.dataset.currency !== currency) return `${amount} ${currency}`;
    return this.money(amount, price) + (price.dataset.paySuffix ?? '');
  }

  /** The button's text: what will be charged ("Pay $10.00", "Subscribe $9.00 / month"). */
  payLabel(): string | null {
    const price = this.selectedPrice();
    if (!price) return null;
    const amount = this.chosenAmount(price);
    const template = price.dataset.payTemplate ?? `${price.dataset.payVerb ?? ''} {amount}`;
    // While the amount is unreadable the button shows its words only.
    return template.replace('{amount}', amount === null ? '' : this.money(amount, price) + (price.dataset.paySuffix ?? '')).trim();
  }

  payerFields(): FieldControl[] {
    return [...this.element.querySelectorAll<FieldControl>('[data-field]')];
  }

  payerDetails(): PayerDetails {
    const details: PayerDetails = {};
    const custom: Record<string, string | boolean> = {};
    for (const element of this.payerFields()) {
      const value = isCheckbox(element) ? element.checked : String(element.value || '').trim();
      if (element.dataset.field === 'core') {
        if (value !== '') details[element.name] = value;
      } else if (value !== '' && value !== false) {
        custom[element.name] = value;
      }
    }
    if (Object.keys(custom).length > 0) details.custom_fields = custom;
    return details;
  }

  /** The page's own checks before anything is sent; every field in error at once. */
  checkFields(): void {
    const fields: FieldError[] = [];
    for (const element of this.payerFields()) {
      const empty = isCheckbox(element) ? !element.checked : String(element.value || '').trim() === '';
      if (element.required && empty) fields.push({ element, message: this.fieldMessage(element, true) });
      else if (element.name === 'email_address' && !empty && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(element.value.trim())) fields.push({ element, message: this.fieldMessage(element, false) });
    }
    const price = this.selectedPrice();
    if (price && price.dataset.customMin !== undefined) {
      const amount = this.customAmount(price);
      const input = this.customAmountInput(price);
      if (input && (amount === null || amount < Number(price.dataset.customMin) || amount > Number(price.dataset.customMax))) {
        fields.unshift({ element: input, message: this.fieldMessage(input, false) });
      }
    }
    if (fields.length > 0) throw new PayerError(text('checkDetails'), fields);
  }

  /** The payer's error for an API answer: field errors from `data.params`, the rest by code. */
  fieldErrors(params: Readonly<Record<string, unknown>>): { fields: FieldError[]; methodRefused: boolean } {
    const fields: FieldError[] = [];
    let methodRefused = false;
    for (const name of Object.keys(params)) {
      const element = this.fieldElement(name);
      if (element) fields.push({ element, message: this.fieldMessage(element, false) });
      else if (METHOD_PARAMS.has(name)) methodRefused = true;
    }
    return { fields, methodRefused };
  }

  private fieldElement(name: string): FieldControl | null {
    if (name === 'amount') {
      const price = this.selectedPrice();
      return price ? this.customAmountInput(price) : null;
    }
    const field = name.startsWith('custom_fields.') ? name.slice('custom_fields.'.length) : name;
    return this.element.querySelector<FieldControl>(`[data-field][name="${window.CSS && CSS.escape ? CSS.escape(field) : field}"]`);
  }

  private fieldLabel(element: FieldControl): string {
    const label = this.element.querySelector(`label[for="${element.id}"]`);
    const labelText = label ? (label.textContent ?? '').replace('*', '').trim() : element.name;
    // English reads "Enter your first name"; the other languages quote the label as written.
    return pageLocale() === 'en' ? labelText.charAt(0).toLowerCase() + labelText.slice(1) : labelText;
  }

  /** The payer's message for a field: missing (`empty`) or refused. */
  private fieldMessage(element: FieldControl, empty: boolean): string {
    if (element.name === 'email_address') return text(empty ? 'field.emailEmpty' : 'field.emailInvalid');
    if (element.name === 'custom_amount') {
      const price = this.selectedPrice()!;
      return text('field.amount', { min: this.money(Number(price.dataset.customMin), price), max: this.money(Number(price.dataset.customMax), price) });
    }
    const label = this.fieldLabel(element);
    if (isCheckbox(element)) return text('field.checkbox', { label });
    if (element.tagName === 'SELECT') return text('field.select', { label });
    return text(empty ? 'field.empty' : 'field.invalid', { label });
  }
}

function isCheckbox(element: FieldControl): element is HTMLInputElement {
  return element instanceof HTMLInputElement && element.type === 'checkbox';
}
