import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { cancelSubscription, paymentKeys } from '../../../api/payments';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorNotice } from '../../../components/status';
import { useT } from '../../../i18n/use-t';

/**
 * Cancel subscription: at the end of the period already paid (the default) or now, after a
 * confirmation. Once an end at the period's end is scheduled, only "now" is offered.
 */
export function CancelSubscriptionAction({ paymentId, endScheduled, onCanceled }: { paymentId: number; endScheduled: boolean; onCanceled: (atPeriodEnd: boolean) => void }) {
  const t = useT();
  const queries = useQueryClient();
  const [open, setOpen] = useState(false);
  const [choice, setAtPeriodEnd] = useState(true);
  const atPeriodEnd = choice && !endScheduled;
  const name = useId();
  const cancel = useMutation({
    mutationFn: () => cancelSubscription(paymentId, atPeriodEnd),
    onSuccess: (answer) => {
      queries.setQueryData(paymentKeys.detail(paymentId), answer.payment);
      void queries.invalidateQueries({ queryKey: paymentKeys.all });
      setOpen(false);
      onCanceled(atPeriodEnd);
    },
  });
  return (
    <>
      <button
        type="button"
        className="button button-danger"
        onClick={() => {
          cancel.reset();
          setOpen(true);
        }}
      >
        {t(endScheduled ? 'payments.subscription.cancelNow' : 'payments.subscription.cancel')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('payments.subscription.title')}
        confirmLabel={t(cancel.isPending ? 'payments.subscription.canceling' : 'payments.subscription.cancel')}
        cancelLabel={t('payments.subscription.keep')}
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onCancel={() => !cancel.isPending && setOpen(false)}
      >
        {endScheduled ? (
          <p>{t('payments.subscription.scheduled')}</p>
        ) : (
          <fieldset className="choices">
            <legend>{t('payments.subscription.when')}</legend>
            <label>
              <input type="radio" name={name} checked={atPeriodEnd} onChange={() => setAtPeriodEnd(true)} /> {t('payments.subscription.atPeriodEnd')}
            </label>
            <label>
              <input type="radio" name={name} checked={!atPeriodEnd} onChange={() => setAtPeriodEnd(false)} /> {t('payments.subscription.now')}
            </label>
          </fieldset>
        )}
        {cancel.isError && <ErrorNotice error={cancel.error} />}
      </ConfirmDialog>
    </>
  );
}
