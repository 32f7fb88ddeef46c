/*
 * The part of Stripe.js (https://js.stripe.com/v3/, `window.Stripe`) the payment_element driver
 * uses, typed here: the service ships no Stripe.js types, and the driver reads nothing else.
 */

/** `stripe.elements(options)` in deferred-intent mode, plus the method's options from the adapter. */
export interface ElementsOptions {
  mode: 'payment' | 'setup';
  currency: string;
  amount?: number;
  /** Elements' own texts' language (`auto`, `de`, `pt-BR`, …) */
  locale?: string;
  [option: string]: unknown;
}

export interface PaymentElementOptions {
  layout?: string;
  wallets?: Record<string, string>;
  [option: string]: unknown;
}

export interface StripeError {
  type?: string;
  code?: string;
  message?: string;
}

export interface StripePaymentElement {
  mount(selector: string): void;
  destroy(): void;
}

export interface StripeElements {
  create(type: 'payment', options: PaymentElementOptions): StripePaymentElement;
  update(changes: { amount?: number; currency?: string }): void;
  submit(): Promise<{ error?: StripeError } | undefined>;
}

export interface ConfirmParams {
  elements: StripeElements;
  clientSecret: string;
  confirmParams: { return_url: string; payment_method_data: { billing_details: { email?: string; name?: string } } };
  redirect: 'if_required';
}

export interface StripeInstance {
  elements(options: ElementsOptions): StripeElements;
  confirmPayment(params: ConfirmParams): Promise<{ error?: StripeError }>;
  confirmSetup(params: ConfirmParams): Promise<{ error?: StripeError }>;
}
