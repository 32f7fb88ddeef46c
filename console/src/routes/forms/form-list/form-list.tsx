import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../../../clients/typescript/index';
import { unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { formKeys, formListQuery, hostedPageUrl } from '../../../api/forms';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Page } from '../../../components/page';
import { Pager } from '../../../components/list/pager';
import { useListState } from '../../../components/list/use-list-state';
import { Empty, ErrorNotice, QueryView, Success } from '../../../components/status';
import { TableScroll } from '../../../components/table-scroll';
import { Time } from '../../../components/time';
import { priceText } from '../common/price-text';

type PaymentForm = components['schemas']['PaymentFormDto'];

/** The forms of the site, newest first, with their state and what can be done with each. */
export function FormsScreen() {
  const list = useListState([]);
  const queries = useQueryClient();
  const [toDelete, setToDelete] = useState<PaymentForm | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const done = useRef<HTMLDivElement>(null);

  const query = useQuery(formListQuery(list.page));

  const remove = useMutation({
    mutationFn: async (form: PaymentForm) => unwrap(await api.DELETE('/administration/payment-forms/{id}', { params: { path: { id: form.id } } })),
    onSuccess: (answer) => {
      setToDelete(null);
      setDeleted(`Deleted “${answer.previous.title}” (#${answer.previous.id}). Its payments are kept.`);
      queries.removeQueries({ queryKey: formKeys.detail(answer.previous.id) });
      return queries.invalidateQueries({ queryKey: formKeys.lists });
    },
  });

  // The row that held the focused Delete button is gone: focus goes to the message that says what happened.
  useEffect(() => {
    if (deleted) done.current?.focus();
  }, [deleted]);

  return (
    <Page
      title="Forms"
      actions={
        <Link className="button button-primary" to="/forms/new">
          New form from a template
        </Link>
      }
    >
      <div ref={done} tabIndex={-1} className="focus-target">
        {deleted && <Success>{deleted}</Success>}
      </div>
      <QueryView query={query} what="status.loading.forms">
        {({ rows, total, totalPages }) =>
          rows.length === 0 ? (
            <Empty>
              <p>No forms yet.</p>
              <p>
                <Link to="/forms/new">Start from a template in the gallery</Link>: a simple payment, a donation, a subscription and more. You can change everything
                afterwards.
              </p>
            </Empty>
          ) : (
            <>
              <FormsTable rows={rows} onDelete={(form) => { remove.reset(); setToDelete(form); }} />
              <Pager page={list.page} total={total} totalPages={totalPages} onPage={list.setPage} />
            </>
          )
        }
      </QueryView>
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete “${toDelete.title}”?` : 'Delete the form?'}
        confirmLabel="Delete form"
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
      >
        <p>
          Form #{toDelete?.id} and its settings are deleted for good; its page <code>/pay/{toDelete?.id}</code> stops working. Payments made with it are kept.
        </p>
        {remove.isError && <ErrorNotice error={remove.error} />}
      </ConfirmDialog>
    </Page>
  );
}

function FormsTable({ rows, onDelete }: { rows: PaymentForm[]; onDelete: (form: PaymentForm) => void }) {
  return (
    <TableScroll label="Forms">
      <table className="card list-table">
        <caption className="visually-hidden">Payment forms, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Form</th>
            <th scope="col">Status</th>
            <th scope="col">Price</th>
            <th scope="col">Created</th>
            <th scope="col">Updated</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((form) => (
            <tr key={form.id}>
              <th scope="row">
                <Link to={`/forms/${form.id}`}>{form.title}</Link>
                <br />
                <span className="muted">#{form.id}</span>
              </th>
              <td data-label="Status">
                <StatusBadge status={form.status} />
              </td>
              <td data-label="Price">{priceSummary(form)}</td>
              <td data-label="Created"><Time iso={form.created_at} /></td>
              <td data-label="Updated"><Time iso={form.updated_at} /></td>
              <td>
                <div className="row-actions">
                  <Link to={`/forms/${form.id}`} aria-label={`Edit ${form.title}`}>
                    Edit
                  </Link>
                  {form.status === 'publish' ? (
                    <a href={hostedPageUrl(form.id)} target="_blank" rel="noopener">
                      Open page<span className="visually-hidden"> of {form.title} (new tab)</span>
                    </a>
                  ) : (
                    <span className="muted">Not published</span>
                  )}
                  <button type="button" className="button button-danger" onClick={() => onDelete(form)} aria-label={`Delete ${form.title}`}>
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function StatusBadge({ status }: { status: PaymentForm['status'] }) {
  return status === 'publish' ? <span className="badge badge-completed">Published</span> : <span className="badge">Draft</span>;
}

/** The first price of the form, and how many others it has. */
function priceSummary(form: PaymentForm): string {
  const prices = form.settings.plans.flatMap((plan) => plan.prices);
  if (prices.length === 0) return '—';
  return prices.length > 1 ? `${priceText(prices[0])} + ${prices.length - 1} more` : priceText(prices[0]);
}
