import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * Characters a payer's one-line text never needs and an attacker uses: C0 controls (TAB, CR and LF
 * included: a line break in a name adds lines to the merchant's notification email), DEL, C1
 * controls, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), which make a shown text read differently from what it holds.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** The same, but a line feed is allowed: multi-line text (a textarea's value). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_IN_LINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** True when `text` holds no control or text-direction character (line feeds allowed when `multiLine`). */
export function isPlainText(text: string, multiLine = false): boolean {
  return !(multiLine ? UNSAFE_IN_LINES : UNSAFE_IN_LINE).test(text);
}

export const PLAIN_TEXT_MESSAGE = 'must not contain control characters (tab, line breaks and the like) or text-direction characters';

/** A string property must be plain one-line text (see UNSAFE_IN_LINE); other types are left to their own validators. */
export function IsPlainText(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isPlainText',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isPlainText(value),
        defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'value'} ${PLAIN_TEXT_MESSAGE}`,
      },
    });
  };
}
