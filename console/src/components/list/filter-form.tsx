import { createContext, type FormEvent, type InputHTMLAttributes, type ReactNode, useContext, useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useGatewayLabels } from '../../api/gateways';
import { MODES } from '../../api/vocabulary';
import type { FilterValues } from './list-params';
import type { ListState } from './use-list-state';

/** What a filter field needs of its form: the address's values, the API's messages, the ids' prefix. */
interface FilterContext {
  values: Partial<Record<string, string>>;
  errors: Partial<Record<string, string>>;
  idPrefix: string;
}

const Filters = createContext<FilterContext>({ values: {}, errors: {}, idPrefix: 'filter' });

/**
 * The filter form of a list screen: its fields start from the address, "Apply filters" writes the
 * form back to it (page 1). A filter the API refused is shown at its field (`errors`, from
 * formErrorsOf) and focus goes there once. On a phone the form folds behind a "Filters" button
 * (styles.css), open from the start when a filter is set or refused, so the list comes first.
 */
export function FilterForm<N extends string>({
  list,
  label: formLabel,
  idPrefix,
  errors,
  children,
}: {
  list: ListState<N>;
  label: string;
  idPrefix: string;
  errors?: { fields: Partial<Record<N, string>>; first: N | null };
  children: ReactNode;
}) {
  const first = errors?.first ?? null;
  const focused = useRef<string | null>(null);
  const [unfolded, setUnfolded] = useState(list.filtered);
  const formId = useId();
  const shown = unfolded || first !== null;
  useEffect(() => {
    if (first && focused.current !== first) document.getElementById(`${idPrefix}-${first}`)?.focus();
    focused.current = first;
  }, [first, idPrefix]);

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values: FilterValues<N> = {};
    for (const name of list.filterNames) values[name] = String(form.get(name) ?? '');
    list.apply(values);
  }

  return (
    <>
      <button type="button" className="button filters-toggle" aria-expanded={shown} aria-controls={formId} onClick={() => setUnfolded(!shown)}>
        <FormattedMessage id="list.filters" />
      </button>
      <form id={formId} className={shown ? 'card filters' : 'card filters filters-folded'} onSubmit={apply} aria-label={formLabel} key={list.version}>
        <Filters.Provider value={{ values: list.values, errors: errors?.fields ?? {}, idPrefix }}>{children}</Filters.Provider>
        <div className="field">
          <button type="submit" className="button button-primary">
            <FormattedMessage id="list.filters.apply" />
          </button>
        </div>
      </form>
    </>
  );
}

/** The control's attributes for filter `name`, and its message from the API. */
function useFilterField(name: string) {
  const { values, errors, idPrefix } = useContext(Filters);
  const id = `${idPrefix}-${name}`;
  const message = errors[name];
  return {
    control: { id, name, defaultValue: values[name] ?? '', 'aria-invalid': message ? true : undefined, 'aria-describedby': message ? `${id}-error` : undefined },
    error: message && (
      <span className="field-error" id={`${id}-error`}>
        {message}
      </span>
    ),
  };
}

function FilterField({ label: fieldLabel, help, error, children }: { label: string; help?: string; error: ReactNode; children: ReactNode }) {
  return (
    <label className="field">
      <span className="field-label">{fieldLabel}</span>
      {children}
      {help && <span className="field-help">{help}</span>}
      {error}
    </label>
  );
}

/** A text, number or date filter. */
export function FilterInput({ name, label: fieldLabel, help, ...input }: { name: string; label: string; help?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id' | 'defaultValue'>) {
  const { control, error } = useFilterField(name);
  return (
    <FilterField label={fieldLabel} help={help} error={error}>
      <input {...control} {...input} />
    </FilterField>
  );
}

/** A choice among `options` (value → shown text), "Any" first. */
export function FilterSelect({ name, label: fieldLabel, options }: { name: string; label: string; options: ReadonlyArray<readonly [value: string, text: string]> }) {
  const intl = useIntl();
  const { control, error } = useFilterField(name);
  return (
    <FilterField label={fieldLabel} error={error}>
      <select {...control}>
        <option value="">{intl.formatMessage({ id: 'list.filters.any' })}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </FilterField>
  );
}

/** Test or live mode. */
export function ModeFilter() {
  const intl = useIntl();
  return (
    <FilterSelect
      name="mode"
      label={intl.formatMessage({ id: 'list.filters.mode' })}
      options={MODES.map((mode) => [mode, intl.formatMessage({ id: 'vocabulary.mode' }, { mode })] as const)}
    />
  );
}

/** The gateways the service has, by the names it gives them, plus `extra` choices (e.g. a provider that is not a gateway). */
export function GatewayFilter({ label: fieldLabel, extra = [] }: { label: string; extra?: ReadonlyArray<readonly [string, string]> }) {
  const gatewayLabels = useGatewayLabels();
  return <FilterSelect name="gateway" label={fieldLabel} options={[...Object.entries(gatewayLabels), ...extra]} />;
}
