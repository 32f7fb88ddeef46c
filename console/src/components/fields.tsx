import { useEffect } from 'react';

/** A field's message from the API, tied to its control by `{id}-error`. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span className="field-error" id={`${id}-error`}>
      {message}
    </span>
  );
}

/** `aria-invalid` and the message's id for a control the API named. */
export function invalid(message: string | undefined, id: string) {
  return message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}

/** After each refused submission, focus goes to the first field the API named (`{prefix}-{field}`). */
export function useFocusFirstInvalid(error: unknown, first: string | null, prefix: string): void {
  useEffect(() => {
    if (error && first) document.getElementById(`${prefix}-${first}`)?.focus();
    // The error object is new on every failure, so a second refusal of the same field focuses it again.
  }, [error, first, prefix]);
}
