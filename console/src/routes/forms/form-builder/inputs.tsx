import { createContext, type ReactNode, useContext } from 'react';
import { useT } from '../../../i18n/use-t';
import type { BuilderOption } from '../common/builder-rules';
import { errorId, inputId } from '../common/field-paths';

/** The builder's current field errors, by the path of the input that shows each. */
export const FieldErrors = createContext<Readonly<Record<string, string>>>({});

function useFieldError(path: string): string | undefined {
  return useContext(FieldErrors)[path];
}

/** aria-describedby of an input: its help, then its error (both optional). */
function describedBy(...ids: Array<string | undefined>): string | undefined {
  const list = ids.filter(Boolean);
  return list.length > 0 ? list.join(' ') : undefined;
}

interface Common {
  /** The API path the input edits: its id, and where the API's errors for it land */
  path: string;
  label: string;
  help?: ReactNode;
  required?: boolean;
}

function Message({ path, error }: { path: string; error?: string }) {
  const t = useT();
  return error ? (
    <span className="field-error" id={errorId(path)}>
      <span className="visually-hidden">{t('forms.builder.error')}</span>
      {error}
    </span>
  ) : null;
}

function Label({ path, label, required }: Common) {
  const t = useT();
  return (
    <label className="field-label" htmlFor={inputId(path)}>
      {label}
      {required && <span className="required-mark">{t('forms.builder.required')}</span>}
    </label>
  );
}

export function TextInput({
  value,
  onChange,
  type = 'text',
  maxLength,
  inputMode,
  autoComplete,
  multiline,
  ...common
}: Common & {
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'url' | 'color';
  maxLength?: number;
  inputMode?: 'decimal' | 'email' | 'url' | 'text';
  autoComplete?: string;
  multiline?: boolean;
}) {
  const error = useFieldError(common.path);
  const id = inputId(common.path);
  const helpId = common.help ? `${id}-help` : undefined;
  const props = {
    id,
    value,
    maxLength,
    'aria-required': common.required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(helpId, error ? errorId(common.path) : undefined),
  };
  return (
    <div className="field">
      <Label {...common} />
      {common.help && (
        <span className="field-help" id={helpId}>
          {common.help}
        </span>
      )}
      {multiline ? (
        <textarea {...props} rows={3} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...props} type={type} inputMode={inputMode} autoComplete={autoComplete ?? 'off'} onChange={(event) => onChange(event.target.value)} />
      )}
      <Message path={common.path} error={error} />
    </div>
  );
}

export function SelectInput({ value, onChange, options, ...common }: Common & { value: string; onChange: (value: string) => void; options: readonly BuilderOption[] }) {
  const error = useFieldError(common.path);
  const id = inputId(common.path);
  const helpId = common.help ? `${id}-help` : undefined;
  // A saved value the server no longer offers stays visible rather than silently changing.
  const choices = options.some((option) => option.value === value) || value === '' ? options : [{ value, label: value }, ...options];
  return (
    <div className="field">
      <Label {...common} />
      {common.help && (
        <span className="field-help" id={helpId}>
          {common.help}
        </span>
      )}
      <select
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(helpId, error ? errorId(common.path) : undefined)}
        onChange={(event) => onChange(event.target.value)}
      >
        {choices.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Message path={common.path} error={error} />
    </div>
  );
}

export function CheckboxInput({ checked, onChange, path, label, help }: Omit<Common, 'required'> & { checked: boolean; onChange: (checked: boolean) => void }) {
  const error = useFieldError(path);
  const id = inputId(path);
  const helpId = help ? `${id}-help` : undefined;
  return (
    <div className="field">
      <div className="check">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(helpId, error ? errorId(path) : undefined)}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {help && (
        <span className="field-help" id={helpId}>
          {help}
        </span>
      )}
      <Message path={path} error={error} />
    </div>
  );
}

/**
 * A group of inputs for one API path (a plan, a price, the payer fields, a gateway's methods):
 * an error the API gives for the whole group shows under its legend, and the error summary's link
 * focuses the group.
 */
export function Group({ path, legend, children, className }: { path: string; legend: ReactNode; children: ReactNode; className?: string }) {
  const t = useT();
  const error = useFieldError(path);
  return (
    <fieldset id={inputId(path)} tabIndex={-1} className={className} aria-describedby={error ? errorId(path) : undefined}>
      <legend>{legend}</legend>
      {error && (
        <p className="field-error" id={errorId(path)}>
          <span className="visually-hidden">{t('forms.builder.error')}</span>
          {error}
        </p>
      )}
      {children}
    </fieldset>
  );
}
