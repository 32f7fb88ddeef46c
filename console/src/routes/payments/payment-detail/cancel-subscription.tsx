import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { cancelSubscription, paymentKeys } from '../../../api/payments';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorNotice } from '../../../components/status';

/** Cancel subscription: at the end of the period already paid (the default) or now, after a confirmation. */
export function CancelSubscriptionAction({ paymentId, onCanceled }: { paymentId: number; onCanceled: (atPeriodEnd: boolean) => void }) {
  const queries = useQueryClient();
  const [open, setOpen] = useState(false);
  const [atPeriodEnd, setAtPeriodEnd] = useState(true);
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
        Cancel subscription
      </button>
      <ConfirmDialog
        open={open}
        title="Cancel the subscription?"
        confirmLabel={cancel.isPending ? 'Canceling…' : 'Cancel subscription'}
        cancelLabel="Keep it"
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onCancel={() => !cancel.isPending && setOpen(false)}
      >
        <fieldset className="choices">
          <legend>When should it end?</legend>
          <label>
            <input type="radio" name={name} checked={atPeriodEnd} onChange={() => setAtPeriodEnd(true)} /> At the end of the period already paid
          </label>
          <label>
            <input type="radio" name={name} checked={!atPeriodEnd} onChange={() => setAtPeriodEnd(false)} /> Now: the payer is not charged again
          </label>
        </fieldset>
        {cancel.isError && <ErrorNotice error={cancel.error} />}
      </ConfirmDialog>
    </>
  );
}
