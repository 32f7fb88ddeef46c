import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage } from 'react-intl';
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
import { type Translate, useT } from '../../../i18n/use-t';
import { priceText } from '../common/price-text';

type PaymentForm = components['schemas']['PaymentFormDto'];

/** The forms of the site, newest first, with their state and what can be done with each. */
export function FormsScreen() {
  const t = useT();
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
      setDeleted(t('forms.list.deleted', { title: answer.previous.title, id: String(answer.previous.id) }));
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
      title={t('forms.list.title')}
      actions={
        <Link className="button button-primary" to="/forms/new">
          {t('forms.list.new')}
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
              <p>{t('forms.list.empty')}</p>
              <p>
                <FormattedMessage id="forms.list.emptyGallery" values={{ link: (chunks) => <Link to="/forms/new">{chunks}</Link> }} />
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
        title={toDelete ? t('forms.list.delete.title', { title: toDelete.title }) : t('forms.list.delete.titleNone')}
        confirmLabel={t('forms.list.delete.submit')}
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
      >
        <p>
          <FormattedMessage id="forms.list.delete.text" values={{ id: String(toDelete?.id ?? ''), code: (chunks) => <code>{chunks}</code> }} />
        </p>
        {remove.isError && <ErrorNotice error={remove.error} />}
      </ConfirmDialog>
    </Page>
  );
}

function FormsTable({ rows, onDelete }: { rows: PaymentForm[]; onDelete: (form: PaymentForm) => void }) {
  const t = useT();
  return (
    <TableScroll label={t('forms.list.title')}>
      <table className="card list-table">
        <caption className="visually-hidden">{t('forms.list.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('forms.list.column.form')}</th>
            <th scope="col">{t('forms.list.column.status')}</th>
            <th scope="col">{t('forms.list.column.price')}</th>
            <th scope="col">{t('forms.list.column.created')}</th>
            <th scope="col">{t('forms.list.column.updated')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('forms.list.column.actions')}</span>
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
              <td data-label={t('forms.list.column.status')}>
                <StatusBadge status={form.status} />
              </td>
              <td data-label={t('forms.list.column.price')}>{priceSummary(form, t)}</td>
              <td data-label={t('forms.list.column.created')}><Time iso={form.created_at} /></td>
              <td data-label={t('forms.list.column.updated')}><Time iso={form.updated_at} /></td>
              <td>
                <div className="row-actions">
                  <Link to={`/forms/${form.id}`} aria-label={t('forms.list.editLabel', { title: form.title })}>
                    {t('forms.list.edit')}
                  </Link>
                  {form.status === 'publish' ? (
                    <a href={hostedPageUrl(form.id)} target="_blank" rel="noopener">
                      {t('forms.list.openPage')}
                      <span className="visually-hidden">{t('forms.list.openPageOf', { title: form.title })}</span>
                    </a>
                  ) : (
                    <span className="muted">{t('forms.list.notPublished')}</span>
                  )}
                  <button type="button" className="button button-danger" onClick={() => onDelete(form)} aria-label={t('forms.list.deleteLabel', { title: form.title })}>
                    {t('forms.list.delete')}
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
  const t = useT();
  return status === 'publish' ? <span className="badge badge-completed">{t('forms.status.publish')}</span> : <span className="badge">{t('forms.status.draft')}</span>;
}

/** The first price of the form, and how many others it has. */
function priceSummary(form: PaymentForm, t: Translate): string {
  const prices = form.settings.plans.flatMap((plan) => plan.prices);
  if (prices.length === 0) return '—';
  return prices.length > 1 ? t('forms.list.priceMore', { price: priceText(prices[0], t), more: prices.length - 1 }) : priceText(prices[0], t);
}
