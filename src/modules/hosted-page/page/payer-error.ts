/** A field the page marks, with the payer's message for it. */
export interface FieldError {
  element: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  message: string;
}

/** An error a payer may read: `message` is always ours (or the provider's payer-facing text); `fields` lists the fields to mark. */
export class PayerError extends Error {
  readonly payerFacing = true;

  constructor(
    message: string,
    readonly fields: FieldError[] = [],
  ) {
    super(message);
  }
}

/** What a payer reads for each error code of the API; anything else gets the general message. */
export const PAYER_MESSAGES: Readonly<Record<string, string>> = {
  checkout_rate_limited: 'Too many attempts in a short time. Wait a minute, then try again.',
  checkout_gateway_unavailable: 'The payment provider is not answering right now. Try again in a moment.',
  checkout_unavailable: 'The payment service is busy right now. Try again in a moment.',
  checkout_gateway_error: 'The payment provider could not take this payment. Try again, or choose another payment method.',
  checkout_paused: 'This form cannot take payments right now. Please try again later.',
  checkout_not_found: 'This payment form is no longer available.',
  checkout_invalid_state: 'This payment has already been processed. Reload the page to make a new payment.',
  checkout_invalid_payment_reference: 'This payment session has expired. Reload the page and try again.',
  checkout_contract_mismatch: 'This payment could not be confirmed. Reload the page to see its status before paying again.',
  checkout_idempotency_in_progress: 'Your payment is still being processed. Wait a moment, then try again.',
};

export const GENERAL_MESSAGE = 'The payment could not be completed. Please try again.';
export const OFFLINE_MESSAGE = 'The payment service cannot be reached. Check your connection and try again.';
