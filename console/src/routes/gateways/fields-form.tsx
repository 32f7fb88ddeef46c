import { type FormEvent, type ReactNode, useEffect, useRef } from 'react';
import { ApiError } from '../../api/api-error';
import { ErrorNotice } from '../../components/status';
import { useT } from '../../i18n/use-t';
import { type FieldValues, firstInvalid, type SaveResult, saveSummary, type SettingField, splitFieldErrors, valuesOf } from './gateway-logic';
import { useGatewayMutation } from './gateway-mutation';

/**
 * A form drawn from a connect kind's fields in the catalog (names, labels, types, hints). Secret
 * fields are password inputs, emptied after every save; what was typed is never shown back, only
 * the masks the API answers. Every field starts empty: what is stored shows on the screen around
 * the form, and an empty optional field changes nothing (valuesOf). The API's per-field messages mark their inputs `aria-invalid`, and
 * focus goes to the first invalid field (or to the error summary).
 */
export function FieldsForm({
  idPrefix,
  fields,
  submitLabel,
  save,
  children,
}: {
  idPrefix: string;
  fields: readonly SettingField[];
  submitLabel: string;
  save: (values: FieldValues) => Promise<SaveResult>;
  children?: ReactNode;
}) {
  const t = useT();
  const mutation = useGatewayMutation(save);
  const form = useRef<HTMLFormElement>(null);
  const summary = useRef<HTMLDivElement>(null);
  const names = fields.map((field) => field.name);
  const apiError = mutation.error instanceof ApiError ? mutation.error : null;
  const { byField } = splitFieldErrors(apiError?.params ?? {}, names);
  const invalid = firstInvalid(names, byField);
  const labels = Object.fromEntries(fields.map((field) => [field.name, field.label]));

  useEffect(() => {
    if (!mutation.isError) return;
    if (invalid) form.current?.querySelector<HTMLElement>(`#${CSS.escape(`${idPrefix}-${invalid}`)}`)?.focus();
    else summary.current?.focus();
  }, [mutation.isError, mutation.error, invalid, idPrefix]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = valuesOf(fields, new FormData(event.currentTarget));
    mutation.mutate(values, {
      // Secrets leave the page's inputs as soon as the service has them.
      onSuccess: () => form.current?.reset(),
    });
  }

  const result = mutation.isSuccess ? saveSummary(mutation.data, labels, t) : null;
  return (
    <form ref={form} className="fields-form" onSubmit={submit}>
      {children}
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const error = byField[field.name];
        const describedBy = [field.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
        if (field.type === 'boolean') {
          return (
            <div key={field.name} className="field">
              <label className="check">
                <input id={id} type="checkbox" name={field.name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
                {field.label}
              </label>
              {field.hint && (
                <span id={`${id}-hint`} className="field-help">
                  {field.hint}
                </span>
              )}
              {error && (
                <span id={`${id}-error`} className="field-error">
                  {error}
                </span>
              )}
            </div>
          );
        }
        return (
          <div key={field.name} className="field">
            <label className="field-label" htmlFor={id}>
              {field.label}
              {field.required ? '' : ' (optional)'}
            </label>
            <input
              id={id}
              name={field.name}
              type={field.secret ? 'password' : field.type === 'email' ? 'email' : 'text'}
              autoComplete={field.secret ? 'new-password' : field.type === 'email' ? 'email' : 'off'}
              spellCheck={false}
              required={field.required}
              maxLength={255}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
            />
            {field.hint && (
              <span id={`${id}-hint`} className="field-help">
                {field.secret ? `${sentence(field.hint)} Stored encrypted; shown only masked.` : field.hint}
              </span>
            )}
            {error && (
              <span id={`${id}-error`} className="field-error">
                {error}
              </span>
            )}
          </div>
        );
      })}
      {mutation.isError && (
        <div ref={summary} tabIndex={-1} className="error-summary">
          <ErrorNotice error={mutation.error} />
        </div>
      )}
      {result && (
        <div className="notice notice-success" role="status">
          <p className="notice-title">{result.headline}</p>
          {result.facts.length > 0 && (
            <dl className="facts">
              {result.facts.map(([term, value]) => (
                <div key={term} className="facts-row">
                  <dt>{term}</dt>
                  <dd>
                    <code>{value}</code>
                  </dd>
                </div>
              ))}
            </dl>
          )}
          {result.notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </div>
      )}
      <button type="submit" className="button button-primary" disabled={mutation.isPending}>
        {mutation.isPending ? 'Saving…' : submitLabel}
      </button>
    </form>
  );
}

/** A hint as a sentence, so another can follow it. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}
