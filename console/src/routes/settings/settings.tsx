import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Route, Routes } from 'react-router';
import { CURRENCY_CODES } from '../../../../src/common/money/index';
import { unwrap } from '../../api/api-error';
import { api } from '../../api/client';
import { formErrorsOf } from '../../api/field-errors';
import { gatewayListQuery, useGatewayLabels } from '../../api/gateways';
import { settingsKeys, settingsQuery } from '../../api/settings';
import { tagKeys, tagsQuery } from '../../api/tags';
import { NameForm } from '../../components/name-form';
import { Page } from '../../components/page';
import { FieldError, useFocusFirstInvalid } from '../../components/fields';
import { Empty, ErrorNotice, QueryView, Success } from '../../components/status';
import { TableScroll } from '../../components/table-scroll';
import { FeatureRequestsScreen } from './feature-requests';
import { NotFound } from '../not-found/not-found';
import { SettingsNav } from './settings-nav';
import { useT } from '../../i18n/use-t';
import { defaultGatewayChoices, draftOf, SETTINGS_FIELD_NAMES, type Settings, type SettingsDraft, settingsChanges } from './settings-model';
import { PAYER_LANGUAGES } from '../../payer-languages';

/** `/settings/*`: section B's general settings, the tag vocabulary and the feature-request areas. */
export function SettingsScreens() {
  return (
    <Routes>
      <Route index element={<GeneralSettingsScreen />} />
      <Route path="tags" element={<TagsScreen />} />
      <Route path="features" element={<FeatureRequestsScreen />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}


function GeneralSettingsScreen() {
  const t = useT();
  const settings = useQuery(settingsQuery);
  const [done, setDone] = useState<string | null>(null);
  // Bumped after a reset has been read back: the form starts again from the defaults.
  const [generation, setGeneration] = useState(0);
  return (
    <Page title={t('layout.nav.settings')}>
      <SettingsNav />
      {done && <Success>{done}</Success>}
      <QueryView query={settings} what="status.loading.settings">
        {(current) => (
          <div className="stack">
            <SettingsForm key={generation} current={current} onDone={setDone} />
            <RevokePayerLinks onDone={setDone} />
            <ResetSettings
              onDone={setDone}
              onReset={() => setGeneration((count) => count + 1)}
            />
          </div>
        )}
      </QueryView>
    </Page>
  );
}

function SettingsForm({ current, onDone }: { current: Settings; onDone: (message: string | null) => void }) {
  const t = useT();
  const queries = useQueryClient();
  const gatewayLabels = useGatewayLabels();
  const gateways = useQuery(gatewayListQuery);
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(current));
  const [unchanged, setUnchanged] = useState(false);
  const save = useMutation({
    mutationFn: async (body: NonNullable<ReturnType<typeof settingsChanges>>) => unwrap(await api.POST('/settings', { body })),
    onMutate: () => onDone(null),
    onSuccess: (answer) => {
      onDone(answer.message);
      // The key typed is stored now: the field empties, the mask below it comes from the new answer.
      setDraft((before) => ({ ...before, api_key: '' }));
      return queries.invalidateQueries({ queryKey: settingsKeys.all });
    },
  });
  const errors = formErrorsOf(save.error, SETTINGS_FIELD_NAMES);
  useFocusFirstInvalid(save.error, errors.first, 'settings');

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = settingsChanges(current, draft);
    setUnchanged(body === null);
    if (body) save.mutate(body);
  }

  const gatewayOptions = defaultGatewayChoices(gateways.data ?? [], gatewayLabels, draft.payment_gateway, t);
  // Each field's explanation, then its error when the API refused it.
  const describe = (field: (typeof SETTINGS_FIELD_NAMES)[number]) => ({
    'aria-describedby': [`settings-${field}-help`, errors.fields[field] ? `settings-${field}-error` : ''].filter(Boolean).join(' '),
    'aria-invalid': errors.fields[field] ? (true as const) : undefined,
  });
  return (
    <form className="card" onSubmit={submit} aria-labelledby="general-title" noValidate>
      <h2 id="general-title">{t('settings.nav.general')}</h2>
      {errors.notice && save.isError && <ErrorNotice error={save.error} />}
      <label className="field">
        <span className="field-label">{t('settings.currency')}</span>
        <select
          id="settings-currency"
          value={draft.currency}
          onChange={(event) => setDraft({ ...draft, currency: event.target.value })}
          {...describe('currency')}
        >
          {!CURRENCY_CODES.includes(draft.currency) && <option value={draft.currency}>{draft.currency}</option>}
          {CURRENCY_CODES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
        <span className="field-help" id="settings-currency-help">
          {t('settings.help.currency')}
        </span>
        <FieldError id="settings-currency" message={errors.fields.currency} />
      </label>
      <label className="field">
        <span className="field-label">{t('settings.gateway')}</span>
        <select
          id="settings-payment_gateway"
          value={draft.payment_gateway}
          onChange={(event) => {
            const chosen = gatewayOptions.find((option) => option.value === event.target.value);
            if (chosen) setDraft({ ...draft, payment_gateway: chosen.value });
          }}
          {...describe('payment_gateway')}
        >
          {gatewayOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.enabled ? option.label : t('settings.gateway.notSetUp', { gateway: option.label })}
            </option>
          ))}
        </select>
        <span className="field-help" id="settings-payment_gateway-help">
          {t('settings.help.payment_gateway')}
        </span>
        {gateways.isError && <span className="field-help">{t('settings.gateway.unreadable', { error: gateways.error.message })}</span>}
        <FieldError id="settings-payment_gateway" message={errors.fields.payment_gateway} />
      </label>
      <label className="field">
        <span className="field-label">{t('settings.apiKey')}</span>
        <input
          id="settings-api_key"
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          minLength={8}
          maxLength={255}
          value={draft.api_key}
          onChange={(event) => setDraft({ ...draft, api_key: event.target.value })}
          {...describe('api_key')}
        />
        <span className="field-help" id="settings-api_key-help">
          {t('settings.help.api_key')}{' '}
          {current.api_key ? (
            <FormattedMessage id="settings.apiKey.stored" values={{ key: <code>{current.api_key}</code> }} />
          ) : (
            t('settings.apiKey.none')
          )}
        </span>
        <FieldError id="settings-api_key" message={errors.fields.api_key} />
      </label>
      <label className="field">
        <span className="field-label">{t('settings.language')}</span>
        <select
          id="settings-language"
          value={draft.language}
          onChange={(event) => {
            const chosen = PAYER_LANGUAGES.find((option) => option.value === event.target.value);
            if (chosen) setDraft({ ...draft, language: chosen.value });
          }}
          {...describe('language')}
        >
          {PAYER_LANGUAGES.map((option) => (
            <option key={option.value} value={option.value} lang={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <span className="field-help" id="settings-language-help">
          {t('settings.help.language')}
        </span>
        <FieldError id="settings-language" message={errors.fields.language} />
      </label>
      <label className="check">
        <input
          id="settings-debug_mode"
          type="checkbox"
          checked={draft.debug_mode}
          onChange={(event) => setDraft({ ...draft, debug_mode: event.target.checked })}
          {...describe('debug_mode')}
        />
        {t('settings.debugMode')}
      </label>
      <p className="field-help" id="settings-debug_mode-help">
        {t('settings.help.debug_mode')}
      </p>
      <FieldError id="settings-debug_mode" message={errors.fields.debug_mode} />
      {unchanged && (
        <p className="muted" role="status">
          {t('settings.unchanged')}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        {t(save.isPending ? 'common.saving' : 'settings.save')}
      </button>
    </form>
  );
}

/** POST /administration/payer-links/revoke, after the admin confirms: every payer's manage link sent so far stops working. */
function RevokePayerLinks({ onDone }: { onDone: (message: string | null) => void }) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const revoke = useMutation({
    mutationFn: async () => unwrap(await api.POST('/administration/payer-links/revoke')),
    onMutate: () => onDone(null),
    onSuccess: (answer) => {
      setConfirming(false);
      onDone(answer.message);
    },
  });
  const wasConfirming = useRef(false);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
    else if (wasConfirming.current) opener.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  return (
    <section className="card" aria-labelledby="payer-links-title">
      <h2 id="payer-links-title">{t('settings.payerLinks.title')}</h2>
      <p>{t('settings.payerLinks.text')}</p>
      {revoke.isError && <ErrorNotice error={revoke.error} />}
      {confirming ? (
        <div className="notice notice-warning" role="group" aria-labelledby="payer-links-confirm-text">
          <p id="payer-links-confirm-text">{t('settings.payerLinks.confirm')}</p>
          <div className="actions">
            <button ref={confirmButton} type="button" className="button button-danger" disabled={revoke.isPending} onClick={() => revoke.mutate()}>
              {t(revoke.isPending ? 'settings.payerLinks.revoking' : 'settings.payerLinks.yes')}
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              {t('settings.cancel')}
            </button>
          </div>
        </div>
      ) : (
        <button ref={opener} type="button" className="button button-danger" onClick={() => setConfirming(true)}>
          {t('settings.payerLinks.open')}
        </button>
      )}
    </section>
  );
}

/** DELETE /settings, after the admin confirms: every general setting back to its default, the API key removed. */
function ResetSettings({ onDone, onReset }: { onDone: (message: string | null) => void; onReset: () => void }) {
  const t = useT();
  const queries = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const reset = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/settings')),
    onMutate: () => onDone(null),
    onSuccess: async (answer) => {
      await queries.invalidateQueries({ queryKey: settingsKeys.all });
      setConfirming(false);
      onDone(answer.message);
      onReset();
    },
  });
  const wasConfirming = useRef(false);
  useEffect(() => {
    // Into the confirmation: focus on its button; out of it (cancelled or done): back to the opener.
    if (confirming) confirmButton.current?.focus();
    else if (wasConfirming.current) opener.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  return (
    <section className="card" aria-labelledby="reset-title">
      <h2 id="reset-title">{t('settings.reset.title')}</h2>
      <p>{t('settings.reset.text')}</p>
      {reset.isError && <ErrorNotice error={reset.error} />}
      {confirming ? (
        <div className="notice notice-warning" role="group" aria-labelledby="reset-confirm-text">
          <p id="reset-confirm-text">{t('settings.reset.confirm')}</p>
          <div className="actions">
            <button ref={confirmButton} type="button" className="button button-danger" disabled={reset.isPending} onClick={() => reset.mutate()}>
              {t(reset.isPending ? 'settings.reset.restoring' : 'settings.reset.yes')}
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              {t('settings.cancel')}
            </button>
          </div>
        </div>
      ) : (
        <button ref={opener} type="button" className="button button-danger" onClick={() => setConfirming(true)}>
          {t('settings.reset.open')}
        </button>
      )}
    </section>
  );
}

/** Section B's tag vocabulary: list, add (names unique regardless of case), delete. */
function TagsScreen() {
  const t = useT();
  const queries = useQueryClient();
  const tags = useQuery(tagsQuery);
  const [name, setName] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: async (tag: string) => ({ tag, answer: unwrap(await api.POST('/tags', { body: { tag } })) }),
    onMutate: () => setDone(null),
    onSuccess: ({ tag }) => {
      setName('');
      setDone(t('settings.tags.created', { tag: tag.trim() }));
      return queries.invalidateQueries({ queryKey: tagKeys.all });
    },
  });
  const remove = useMutation({
    mutationFn: async (tag: { tag_id: number; tag: string }) => ({ tag, answer: unwrap(await api.DELETE('/tags/{tag_id}', { params: { path: { tag_id: tag.tag_id } } })) }),
    onMutate: () => setDone(null),
    onSuccess: ({ tag }) => setDone(t('settings.tags.deleted', { tag: tag.tag })),
    // Deleted here or elsewhere (a 404): the list is read again either way.
    onSettled: () => queries.invalidateQueries({ queryKey: tagKeys.all }),
  });

  return (
    <Page title={t('settings.nav.tags')}>
      <SettingsNav />
      {done && <Success>{done}</Success>}
      <div className="stack">
        <NameForm
          className="card"
          prefix="tags"
          field="tag"
          title={t('settings.tags.add')}
          level={2}
          label={t('settings.tags.name')}
          help={t('settings.tags.help')}
          maxLength={100}
          value={name}
          onChange={setName}
          onSubmit={() => create.mutate(name)}
          error={create.error}
          pending={create.isPending}
          submitLabel={t('settings.tags.submit')}
          pendingLabel={t('settings.tags.adding')}
          primary
        />
        <section className="card" aria-labelledby="tag-list-title">
          <h2 id="tag-list-title">{t('settings.tags.all')}</h2>
          {remove.isError && <ErrorNotice error={remove.error} />}
          <QueryView query={tags} what="status.loading.tags">
            {(list) =>
              list.length === 0 ? (
                <Empty>{t('settings.tags.empty')}</Empty>
              ) : (
                <TableScroll label={t('settings.nav.tags')}>
                  <table className="list-table">
                    <caption className="visually-hidden">{t('settings.tags.caption')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('settings.tags.column.tag')}</th>
                        <th scope="col">{t('settings.tags.column.id')}</th>
                        <th scope="col">
                          <span className="visually-hidden">{t('settings.tags.column.actions')}</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {list.map((tag) => (
                        <tr key={tag.tag_id}>
                          <th scope="row">{tag.tag}</th>
                          <td data-label={t('settings.tags.column.id')}>{tag.tag_id}</td>
                          <td className="number">
                            <button type="button" className="button button-danger" disabled={remove.isPending} onClick={() => remove.mutate(tag)}>
                              {t('settings.tags.delete')}
                              <span className="visually-hidden">{t('settings.tags.deleteWhich', { tag: tag.tag })}</span>
                            </button>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )
            }
          </QueryView>
        </section>
      </div>
    </Page>
  );
}
