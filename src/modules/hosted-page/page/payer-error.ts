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

/*
 * What a payer reads for an error code of the API is the catalog's `js.code.<code>` (common/payer-language/payer/),
 * in the payer's language; a code without one gets the general message (`js.general`).
 */
