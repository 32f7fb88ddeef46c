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

/** `/webhooks/:id`: one endpoint: its settings and what can be done with it, "send events since …" and its delivery log. */
export function EndpointScreen() {
  const id = Number(useParams().id);
  const endpoints = useQuery(webhookEndpointListQuery);
  if (!Number.isInteger(id) || id <= 0) return <NotFound />;
  return (
    <Page title={`Endpoint #${id}`} actions={<Link to="/webhooks">All endpoints</Link>}>
      <QueryView query={endpoints} what="status.loading.endpoint">
        {(list) => {
          const endpoint = list.find((one) => one.id === id);
          return endpoint ? (
            <Endpoint endpoint={endpoint} />
          ) : (
            <p>
              There is no endpoint #{id}: it may have been deleted. <Link to="/webhooks">See all endpoints</Link>.
            </p>
          );
        }}
      </QueryView>
    </Page>
  );
}

type Dialog = 'rotate' | 'delete' | null;

function Endpoint({ endpoint }: { endpoint: WebhookEndpoint }) {
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
      void navigate('/webhooks', { state: { notice: `Endpoint ${previous.url} deleted: no more events go there.` } });
    },
  });
  const enabled = endpoint.status === 'enabled';
  const previousSigns = endpoint.previous_secret_expires_at && new Date(endpoint.previous_secret_expires_at).getTime() > Date.now();

  return (
    <div className="stack">
      {done && <Success>{done}</Success>}
      <section className="card" aria-labelledby="endpoint-summary-title">
        <h2 id="endpoint-summary-title">Where events go</h2>
        <dl className="facts">
          <dt>URL</dt>
          <dd>
            <code>{endpoint.url}</code>
          </dd>
          <dt>Events</dt>
          <dd>{eventsText(endpoint.events)}</dd>
          <dt>Description</dt>
          <dd>{endpoint.description ?? <span className="muted">None</span>}</dd>
          <dt>Status</dt>
          <dd>
            <EndpointStatus endpoint={endpoint} />
          </dd>
          <dt>Added</dt>
          <dd><Time iso={endpoint.created_at} seconds /></dd>
          {previousSigns && (
            <>
              <dt>Previous secret</dt>
              <dd>Still signs beside the new one until <Time iso={endpoint.previous_secret_expires_at} seconds /></dd>
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
            Edit
          </button>
          <button
            type="button"
            className="button"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                enabled
                  ? { body: { status: 'disabled' }, message: 'Disabled: no new events are sent to it, and deliveries still waiting are given up.' }
                  : { body: { status: 'enabled' }, message: 'Enabled: new events are sent to it again.' },
              )
            }
          >
            {enabled ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              rotate.reset();
              setDialog('rotate');
            }}
          >
            Rotate secret…
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              remove.reset();
              setDialog('delete');
            }}
          >
            Delete…
          </button>
        </div>
      </section>
      {editing && (
        <EndpointForm
          idPrefix="edit-endpoint"
          title="Edit the endpoint"
          initial={draftOf(endpoint)}
          submitLabel="Save changes"
          pendingLabel="Saving…"
          busy={update.isPending}
          error={update.error}
          onSubmit={(draft) => {
            const body = updateBody(endpoint, draft);
            if (body) update.mutate({ body, message: 'Changes saved.' });
            else {
              setEditing(false);
              setDone('Nothing changed.');
            }
          }}
          onCancel={() => setEditing(false)}
        />
      )}
      <ConfirmDialog
        open={dialog === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel={rotate.isPending ? 'Rotating…' : 'Rotate secret'}
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onCancel={() => !rotate.isPending && setDialog(null)}
      >
        <p>A new secret is made and shown to you once.</p>
        <p>
          For the next 24 hours every event carries two signatures, the new secret's first and the old one's second, so your receiver keeps accepting events
          while you put the new secret in place. After that only the new secret signs.
        </p>
        {rotate.isError && <ErrorNotice error={rotate.error} />}
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'delete'}
        title="Delete this endpoint?"
        confirmLabel={remove.isPending ? 'Deleting…' : 'Delete endpoint'}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => !remove.isPending && setDialog(null)}
      >
        <p>
          Events stop going to <code>{endpoint.url}</code>. Its delivery log is deleted and deliveries not sent yet are dropped. This cannot be undone.
        </p>
        {remove.isError && <ErrorNotice error={remove.error} />}
      </ConfirmDialog>
      {/* After the dialogs: when a rotation closes its dialog, the new secret takes the focus last. */}
      {rotated && (
        <SecretReveal title="New signing secret" secret={rotated.secret} onDone={() => setRotated(null)}>
          <p>
            The old secret keeps signing until <Time iso={rotated.previous_secret_expires_at} seconds />. Put the new one in your receiver before then.
          </p>
        </SecretReveal>
      )}
      <ReplayForm endpoint={endpoint} />
      <DeliveryLog endpoint={endpoint} />
    </div>
  );
}
