import { formErrorsOf } from '../api/field-errors';
import { FieldError, useFocusFirstInvalid } from './fields';
import { ErrorNotice } from './status';

/**
 * A form of one text field that creates something named (a tag, an application password). The
 * API's refusal of that one value (400 or 409, with or without params) shows at the field and
 * takes focus there; anything else (403, 5xx, network) is a notice above it. The field's id is
 * `{prefix}-{field}`, the API's body field.
 */
export function NameForm(props: {
  prefix: string;
  field: string;
  title: string;
  /** `h2` for a form of its own card, `h3` inside a section */
  level: 2 | 3;
  label: string;
  help?: string;
  maxLength: number;
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  /** The create mutation's state */
  error: unknown;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  className?: string;
  primary?: boolean;
}) {
  const { prefix, field } = props;
  const errors = formErrorsOf(props.error, [field], field);
  useFocusFirstInvalid(props.error, errors.first, prefix);
  const id = `${prefix}-${field}`;
  const titleId = `${prefix}-new-title`;
  const message = errors.fields[field];
  const describedBy = [message ? `${id}-error` : null, props.help ? `${id}-help` : null].filter(Boolean).join(' ');
  const Heading = props.level === 2 ? 'h2' : 'h3';
  return (
    <form
      className={props.className}
      aria-labelledby={titleId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      <Heading id={titleId}>{props.title}</Heading>
      {errors.notice && props.error ? <ErrorNotice error={props.error} /> : null}
      <label className="field">
        <span className="field-label">{props.label}</span>
        <input id={id} value={props.value} maxLength={props.maxLength} onChange={(event) => props.onChange(event.target.value)} aria-invalid={message ? true : undefined} aria-describedby={describedBy || undefined} />
        {props.help && (
          <span className="field-help" id={`${id}-help`}>
            {props.help}
          </span>
        )}
        <FieldError id={id} message={message} />
      </label>
      <button type="submit" className={props.primary ? 'button button-primary' : 'button'} disabled={props.pending}>
        {props.pending ? props.pendingLabel : props.submitLabel}
      </button>
    </form>
  );
}
