import { type FormEvent, useState } from 'react';
import { formErrorsOf } from '../../api/field-errors';
import { WEBHOOK_EVENT_TYPES } from '../../api/vocabulary';
import { FieldError, invalid, useFocusFirstInvalid } from '../../components/fields';
import { ErrorNotice } from '../../components/status';
import { FormattedMessage } from 'react-intl';
import { useT } from '../../i18n/use-t';
import { draftProblems, ENDPOINT_FIELDS, type EndpointDraft, type EndpointField, eventWords, toggleType } from './webhook-model';

/**
 * The endpoint's URL, the events it gets (all, present and future, or the ones ticked from the
 * API's list) and a description: for adding one and for editing it. What the form can tell (an
 * empty URL, no event) is said before sending; the API's refusals (an http:// or internal URL…)
 * are shown at the field they name, and focus goes to the first.
 */
export function EndpointForm({
  idPrefix,
  title,
  initial,
  submitLabel,
  pendingLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  title: string;
  initial: EndpointDraft;
  submitLabel: string;
  pendingLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (draft: EndpointDraft) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const t = useT();
  const [problems, setProblems] = useState<Partial<Record<EndpointField, string>>>({});
  const api = formErrorsOf(error, ENDPOINT_FIELDS);
  useFocusFirstInvalid(error, api.first, idPrefix);
  const id = (field: EndpointField) => `${idPrefix}-${field}`;
  const message = (field: EndpointField) => problems[field] ?? api.fields[field];
  const titleId = `${idPrefix}-title`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = draftProblems(draft, t);
    setProblems(found);
    const first = ENDPOINT_FIELDS.find((field) => found[field]);
    if (first) {
      document.getElementById(id(first))?.focus();
      return;
    }
    onSubmit(draft);
  }

  return (
    <form className="card" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <h2 id={titleId}>{title}</h2>
      {Boolean(error) && api.notice && <ErrorNotice error={error} />}
      <div className="field">
        <label className="field-label" htmlFor={id('url')}>
          {t('webhooks.form.url')}
        </label>
        <span className="field-help" id={`${id('url')}-help`}>
          <FormattedMessage id="webhooks.form.urlHelp" values={{ code: (chunks) => <code>{chunks}</code> }} />
        </span>
        <input
          id={id('url')}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          maxLength={2048}
          value={draft.url}
          onChange={(event) => setDraft({ ...draft, url: event.target.value })}
          aria-invalid={message('url') ? true : undefined}
          aria-describedby={[message('url') ? `${id('url')}-error` : '', `${id('url')}-help`].filter(Boolean).join(' ')}
        />
        <FieldError id={id('url')} message={message('url')} />
      </div>
      <fieldset aria-describedby={message('events') ? `${id('events')}-error` : undefined}>
        <legend>{t('webhooks.form.events')}</legend>
        <div className="choices">
          <label>
            <input
              id={id('events')}
              type="radio"
              name={`${idPrefix}-scope`}
              checked={draft.allEvents}
              onChange={() => setDraft({ ...draft, allEvents: true })}
              {...(message('events') ? { 'aria-invalid': true } : {})}
            />{' '}
            {t('webhooks.form.allEvents')}
          </label>
          <label>
            <input type="radio" name={`${idPrefix}-scope`} checked={!draft.allEvents} onChange={() => setDraft({ ...draft, allEvents: false })} />{' '}
            {t('webhooks.form.someEvents')}
          </label>
        </div>
        {!draft.allEvents && (
          <ul className="plain-list event-choices">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <li key={type}>
                <label className="check">
                  <input type="checkbox" checked={draft.types.includes(type)} onChange={(event) => setDraft(toggleType(draft, type, event.target.checked))} />
                  <span>
                    {eventWords(type, t)} <code>{type}</code>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        <FieldError id={id('events')} message={message('events')} />
      </fieldset>
      <div className="field">
        <label className="field-label" htmlFor={id('description')}>
          {t('webhooks.form.description')}
        </label>
        <input
          id={id('description')}
          type="text"
          maxLength={255}
          value={draft.description}
          placeholder={t('webhooks.form.descriptionExample')}
          onChange={(event) => setDraft({ ...draft, description: event.target.value })}
          {...invalid(message('description'), id('description'))}
        />
        <FieldError id={id('description')} message={message('description')} />
      </div>
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? pendingLabel : submitLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('webhooks.form.cancel')}
        </button>
      </div>
    </form>
  );
}
