import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useBlocker, useLocation, useParams } from 'react-router';
import type { components } from '../../../../../clients/typescript/index';
import { ApiError, unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { builderDataQuery, formKeys, formQuery, hostedPageUrl } from '../../../api/forms';
import { catalogQuery } from '../../../api/gateways';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmbedSnippet } from '../../../components/embed-snippet';
import { Page } from '../../../components/page';
import { ErrorNotice, QueryView, Success } from '../../../components/status';
import { Time } from '../../../components/time';
import { useT } from '../../../i18n/use-t';
import { BuilderRules } from '../common/builder-rules';
import { type PlacedErrors, placeErrors } from '../common/field-paths';
import { type DraftAction, draftFingerprint, draftFromForm, draftReducer, type FormBody, type FormStatus, toFormBody } from '../common/form-draft';
import { StatusBadge } from '../form-list/form-list';
import { NotFound } from '../../not-found/not-found';
import { AfterPaymentSection, DisplaySection, EmailSection, FieldsSection, GeneralSection, MethodsSection, PlansSection } from './editor';
import { ErrorSummary } from './error-summary';
import { FieldErrors } from './inputs';
import { LivePreview } from './live-preview';
import { TestEmail } from './test-email';
import { TranslationsSection } from './translations';

type PaymentForm = components['schemas']['PaymentFormDto'];
type BuilderData = components['schemas']['BuilderDataDto'];
type Catalog = components['schemas']['GatewayCatalogDto'];

/** One form in the builder: its settings, the live preview, publishing, a test email and how to share it. */
export function FormBuilderScreen() {
  const t = useT();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const form = useQuery({ ...formQuery(id), enabled: valid });
  const builderData = useQuery({ ...builderDataQuery(id), enabled: valid });
  const catalog = useQuery(catalogQuery);
  if (!valid) return <NotFound />;
  return (
    <Page title={t('forms.builder.title', { id })} actions={<Link to="/forms">{t('forms.builder.allForms')}</Link>}>
      <QueryView queries={[form, builderData, catalog]} what="status.loading.form">
        {/* A new draft for each form (and when another admin's change is loaded on purpose). */}
        {([formData, builderDataData, catalogData]) => <Builder key={id} form={formData} builderData={builderDataData} catalog={catalogData} />}
      </QueryView>
    </Page>
  );
}

interface SaveRequest {
  /** The editor's title and settings; none: the status only */
  body?: FormBody;
  status?: FormStatus;
  /** The fingerprint of the draft that was sent: what "saved" means once the answer arrives */
  fingerprint: string;
}

function Builder({ form, builderData, catalog }: { form: PaymentForm; builderData: BuilderData; catalog: Catalog }) {
  const t = useT();
  const queries = useQueryClient();
  const location = useLocation();
  const rules = useMemo(() => new BuilderRules(builderData), [builderData]);
  const gatewayLabels = useMemo(() => Object.fromEntries(catalog.gateways.map((gateway) => [gateway.id, gateway.label])), [catalog]);
  const [draft, dispatch] = useReducer(draftReducer, form, draftFromForm);
  const [savedFingerprint, setSavedFingerprint] = useState(() => draftFingerprint(draftFromForm(form)));
  const [errors, setErrors] = useState<PlacedErrors | null>(null);
  const [notice, setNotice] = useState<string | null>((location.state as { created?: boolean } | null)?.created ? t('forms.builder.created') : null);
  const summary = useRef<HTMLDivElement>(null);
  // On a narrow screen the form and its preview take turns (styles.css shows one pane there).
  const [pane, setPane] = useState<'form' | 'preview'>('form');
  const dirty = draftFingerprint(draft) !== savedFingerprint;
  const current = useMemo(() => toFormBody(draft, rules, t), [draft, rules, t]);

  const save = useMutation({
    mutationFn: async (request: SaveRequest) =>
      unwrap(await api.PUT('/administration/payment-forms/{id}', { params: { path: { id: form.id } }, body: { ...request.body, ...(request.status ? { status: request.status } : {}) } })),
    onSuccess: (saved, request) => {
      if (request.body) setSavedFingerprint(request.fingerprint);
      setErrors(null);
      setNotice(request.status ? t('forms.builder.statusSaved', { status: request.status, url: hostedPageUrl(saved.id) }) : t('forms.builder.saved'));
      queries.setQueryData(formKeys.detail(form.id), saved);
      void queries.invalidateQueries({ queryKey: formKeys.lists });
      void queries.invalidateQueries({ queryKey: formKeys.builderData(form.id), refetchType: 'none' });
    },
    onError: (error) => {
      setPane('form');
      setNotice(null);
      if (error instanceof ApiError && Object.keys(error.params).length > 0) setErrors(placeErrors(error.params, draft, t, gatewayLabels));
      else setErrors({ byPath: {}, summary: [] });
    },
  });

  /** Saves the draft (optionally with a new status); problems the editor finds itself stop it before any request. */
  function submit(status?: FormStatus) {
    save.reset();
    const result = toFormBody(draft, rules, t);
    if (result.problems) {
      setPane('form'); // what the summary points at is in the form
      setNotice(null);
      setErrors(placeErrors(result.problems, draft, t, gatewayLabels));
      return;
    }
    save.mutate({ body: result.body, status, fingerprint: draftFingerprint(draft) });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    submit();
  }

  // The summary takes focus when a save is refused, so keyboard and screen-reader users hear what to fix.
  useEffect(() => {
    if (errors && (errors.summary.length > 0 || save.isError)) {
      summary.current?.scrollIntoView({ block: 'start' });
      summary.current?.focus();
    }
  }, [errors, save.isError]);

  // A structural change (a plan, price or field added, removed or moved) shifts the paths errors were placed on.
  function change(action: DraftAction) {
    if (errors && !['update', 'email', 'plan-title', 'price', 'field', 'method', 'action'].includes(action.type)) setErrors(null);
    dispatch(action);
  }

  const published = form.status === 'publish';
  const leaving = useBlocker(({ currentLocation, nextLocation }) => dirty && !save.isPending && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return (
    <FieldErrors.Provider value={errors?.byPath ?? {}}>
      <div className="builder-head">
        <p>
          <strong>{form.title}</strong> <StatusBadge status={form.status} /> <span className="muted">
            <FormattedMessage id="forms.builder.updated" values={{ time: <Time iso={form.updated_at} /> }} />
          </span>
        </p>
        <div className="button-row">
          {published ? (
            <>
              <a className="button" href={hostedPageUrl(form.id)} target="_blank" rel="noopener">
                {t('forms.builder.openPage')}
                <span className="visually-hidden">{t('forms.builder.newTab')}</span>
              </a>
              <button type="button" className="button" disabled={save.isPending} onClick={() => save.mutate({ status: 'draft', fingerprint: savedFingerprint })}>
                {t('forms.builder.unpublish')}
              </button>
            </>
          ) : (
            <button type="button" className="button button-primary" disabled={save.isPending} onClick={() => submit('publish')}>
              {dirty ? t('forms.builder.saveAndPublish') : t('forms.builder.publish')}
            </button>
          )}
        </div>
      </div>
      <div className="status-area">
        {errors && (errors.summary.length > 0 || save.isError) ? (
          errors.summary.length > 0 ? (
            <ErrorSummary ref={summary} items={errors.summary} />
          ) : (
            <div ref={summary} tabIndex={-1} className="focus-target">
              <ErrorNotice error={save.error} />
            </div>
          )
        ) : (
          notice && <Success>{notice}</Success>
        )}
      </div>
      <div className="pane-switch" role="group" aria-label={t('forms.builder.pane.label')}>
        <button type="button" className="button" aria-pressed={pane === 'form'} aria-controls="builder-form" onClick={() => setPane('form')}>
          {t('forms.builder.pane.form')}
        </button>
        <button type="button" className="button" aria-pressed={pane === 'preview'} aria-controls="builder-aside" onClick={() => setPane('preview')}>
          {t('forms.builder.pane.preview')}
        </button>
      </div>
      <div className={`split builder show-${pane}`}>
        <form id="builder-form" className="stack builder-form" onSubmit={onSubmit} noValidate aria-label={t('forms.builder.settingsLabel')}>
          <GeneralSection draft={draft} dispatch={change} rules={rules} />
          <PlansSection draft={draft} dispatch={change} rules={rules} />
          <MethodsSection draft={draft} dispatch={change} catalog={catalog} />
          <FieldsSection draft={draft} dispatch={change} rules={rules} />
          <AfterPaymentSection draft={draft} dispatch={change} rules={rules} />
          <EmailSection draft={draft} dispatch={change} rules={rules} />
          <DisplaySection draft={draft} dispatch={change} rules={rules} />
          <TranslationsSection draft={draft} dispatch={change} rules={rules} />
          <div className="save-bar">
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              {save.isPending ? t('common.saving') : t('forms.builder.save')}
            </button>
            <span className="muted">{dirty ? t('forms.builder.unsaved') : t('forms.builder.allSaved')}</span>
          </div>
        </form>
        <div id="builder-aside" className="stack builder-aside">
          <LivePreview formId={form.id} body={current.body ?? null} problem={current.problems ? Object.values(current.problems)[0] : undefined} />
          <EmbedSnippet formId={form.id} published={published} />
          <TestEmail formId={form.id} unsaved={dirty} />
        </div>
      </div>
      <ConfirmDialog
        open={leaving.state === 'blocked'}
        title={t('forms.builder.leave.title')}
        confirmLabel={t('forms.builder.leave.confirm')}
        onCancel={() => leaving.reset?.()}
        onConfirm={() => leaving.proceed?.()}
      >
        <p>{t('forms.builder.leave.text')}</p>
      </ConfirmDialog>
    </FieldErrors.Provider>
  );
}
