import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { cancelSubscription, paymentKeys } from '../../../api/payments';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorNotice } from '../../../components/status';

/**
 * Cancel subscription: at the end of the period already paid (the default) or now, after a
 * confirmation. Once an end at the period's end is scheduled, only "now" is offered.
 */
export function CancelSubscriptionAction({ paymentId, endScheduled, onCanceled }: { paymentId: number; endScheduled: boolean; onCanceled: (atPeriodEnd: boolean) => void }) {
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
        {endScheduled ? 'Cancel subscription now' : 'Cancel subscription'}
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
        {endScheduled ? (
          <p>It is already set to end with the period paid. Canceling now ends it at once: the payer is not charged again.</p>
        ) : (
          <fieldset className="choices">
            <legend>When should it end?</legend>
            <label>
              <input type="radio" name={name} checked={atPeriodEnd} onChange={() => setAtPeriodEnd(true)} /> At the end of the period already paid
            </label>
            <label>
              <input type="radio" name={name} checked={!atPeriodEnd} onChange={() => setAtPeriodEnd(false)} /> Now: the payer is not charged again
            </label>
          </fieldset>
        )}
        {cancel.isError && <ErrorNotice error={cancel.error} />}
      </ConfirmDialog>
    </>
  );
}
