import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  type UpdateWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  webhookEndpointKeys,
  webhookEndpointListQuery,
} from '../../api/webhook-endpoints';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { ErrorNotice, QueryView, Success } from '../../components/status';
import { Time } from '../../components/time';
import { NotFound } from '../not-found/not-found';
import { DeliveryLog } from './delivery-log';
import { EndpointForm } from './endpoint-form';
import { EndpointStatus } from './endpoint-list';
import { ReplayForm } from './replay-form';
import { SecretReveal } from './secret-reveal';
import { draftOf, eventsText, updateBody } from './webhook-model';
import { FormattedMessage } from 'react-intl';
import { useT } from '../../i18n/use-t';

/** `/webhooks/:id`: one endpoint: its settings and what can be done with it, "send events since …" and its delivery log. */
export function EndpointScreen() {
  const t = useT();
  const id = Number(useParams().id);
  const endpoints = useQuery(webhookEndpointListQuery);
  if (!Number.isInteger(id) || id <= 0) return <NotFound />;
  return (
    <Page title={t('webhooks.endpoint.title', { id: String(id) })} actions={<Link to="/webhooks">{t('webhooks.endpoint.all')}</Link>}>
      <QueryView query={endpoints} what="status.loading.endpoint">
        {(list) => {
          const endpoint = list.find((one) => one.id === id);
          return endpoint ? (
            <Endpoint endpoint={endpoint} />
          ) : (
            <p>
              <FormattedMessage id="webhooks.endpoint.missing" values={{ id: String(id), link: (chunks) => <Link to="/webhooks">{chunks}</Link> }} />
            </p>
          );
        }}
      </QueryView>
    </Page>
  );
}

type Dialog = 'rotate' | 'delete' | null;

function Endpoint({ endpoint }: { endpoint: WebhookEndpoint }) {
  const t = useT();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [done, setDone] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [rotated, setRotated] = useState<WebhookEndpointWithSecret | null>(null);
  const refreshList = () => queries.invalidateQueries({ queryKey: webhookEndpointKeys.list() });

  const update = useMutation({
    mutationFn: ({ body }: { body: UpdateWebhookEndpoint; message: string }) => updateWebhookEndpoint(endpoint.id, body),
    onMutate: () => setDone(null),
    onSuccess: (_answer, { message }) => {
      setEditing(false);
      setDone(message);
      return refreshList();
    },
  });
  const rotate = useMutation({
    mutationFn: () => rotateWebhookSecret(endpoint.id),
    onMutate: () => setDone(null),
    onSuccess: (answer) => {
      setDialog(null);
      setRotated(answer);
      return refreshList();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteWebhookEndpoint(endpoint.id),
    onSuccess: (previous) => {
      setDialog(null);
      // Gone from the list at once: the list screen must not ask for the deleted endpoint's last delivery (a 404).
      queries.setQueryData<WebhookEndpoint[]>(webhookEndpointKeys.list(), (list) => list?.filter((one) => one.id !== previous.id));
      void refreshList();
      void navigate('/webhooks', { state: { notice: t('webhooks.endpoint.deleted', { url: previous.url }) } });
    },
  });
  const enabled = endpoint.status === 'enabled';
  const previousSigns = endpoint.previous_secret_expires_at && new Date(endpoint.previous_secret_expires_at).getTime() > Date.now();

  return (
    <div className="stack">
      {done && <Success>{done}</Success>}
      <section className="card" aria-labelledby="endpoint-summary-title">
        <h2 id="endpoint-summary-title">{t('webhooks.endpoint.summary')}</h2>
        <dl className="facts">
          <dt>{t('webhooks.fact.url')}</dt>
          <dd>
            <code>{endpoint.url}</code>
          </dd>
          <dt>{t('webhooks.fact.events')}</dt>
          <dd>{eventsText(endpoint.events, t)}</dd>
          <dt>{t('webhooks.fact.description')}</dt>
          <dd>{endpoint.description ?? <span className="muted">{t('webhooks.fact.none')}</span>}</dd>
          <dt>{t('webhooks.fact.status')}</dt>
          <dd>
            <EndpointStatus endpoint={endpoint} />
          </dd>
          <dt>{t('webhooks.fact.added')}</dt>
          <dd><Time iso={endpoint.created_at} seconds /></dd>
          {previousSigns && (
            <>
              <dt>{t('webhooks.fact.previousSecret')}</dt>
              <dd>
                <FormattedMessage id="webhooks.fact.previousSecretUntil" values={{ time: <Time iso={endpoint.previous_secret_expires_at} seconds /> }} />
              </dd>
            </>
          )}
        </dl>
        {update.isError && !editing && <ErrorNotice error={update.error} />}
        <div className="button-row">
          <button
            type="button"
            className="button"
            disabled={editing}
            onClick={() => {
              update.reset();
              setEditing(true);
            }}
          >
            {t('webhooks.endpoint.edit')}
          </button>
          <button
            type="button"
            className="button"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                enabled
                  ? { body: { status: 'disabled' }, message: t('webhooks.endpoint.disabled') }
                  : { body: { status: 'enabled' }, message: t('webhooks.endpoint.enabled') },
              )
            }
          >
            {t(enabled ? 'webhooks.endpoint.disable' : 'webhooks.endpoint.enable')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              rotate.reset();
              setDialog('rotate');
            }}
          >
            {t('webhooks.endpoint.rotateOpen')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              remove.reset();
              setDialog('delete');
            }}
          >
            {t('webhooks.endpoint.deleteOpen')}
          </button>
        </div>
      </section>
      {editing && (
        <EndpointForm
          idPrefix="edit-endpoint"
          title={t('webhooks.endpoint.editTitle')}
          initial={draftOf(endpoint)}
          submitLabel={t('webhooks.endpoint.save')}
          pendingLabel={t('common.saving')}
          busy={update.isPending}
          error={update.error}
          onSubmit={(draft) => {
            const body = updateBody(endpoint, draft);
            if (body) update.mutate({ body, message: t('webhooks.endpoint.saved') });
            else {
              setEditing(false);
              setDone(t('webhooks.endpoint.unchanged'));
            }
          }}
          onCancel={() => setEditing(false)}
        />
      )}
      <ConfirmDialog
        open={dialog === 'rotate'}
        title={t('webhooks.rotate.title')}
        confirmLabel={t(rotate.isPending ? 'webhooks.rotate.rotating' : 'webhooks.rotate.submit')}
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onCancel={() => !rotate.isPending && setDialog(null)}
      >
        <p>{t('webhooks.rotate.once')}</p>
        <p>{t('webhooks.rotate.overlap')}</p>
        {rotate.isError && <ErrorNotice error={rotate.error} />}
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'delete'}
        title={t('webhooks.delete.title')}
        confirmLabel={t(remove.isPending ? 'webhooks.delete.deleting' : 'webhooks.delete.submit')}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => !remove.isPending && setDialog(null)}
      >
        <p>
          <FormattedMessage id="webhooks.delete.text" values={{ url: <code>{endpoint.url}</code> }} />
        </p>
        {remove.isError && <ErrorNotice error={remove.error} />}
      </ConfirmDialog>
      {/* After the dialogs: when a rotation closes its dialog, the new secret takes the focus last. */}
      {rotated && (
        <SecretReveal title={t('webhooks.rotate.newSecret')} secret={rotated.secret} onDone={() => setRotated(null)}>
          <p>
            <FormattedMessage id="webhooks.rotate.oldUntil" values={{ time: <Time iso={rotated.previous_secret_expires_at} seconds /> }} />
          </p>
        </SecretReveal>
      )}
      <ReplayForm endpoint={endpoint} />
      <DeliveryLog endpoint={endpoint} />
    </div>
  );
}
