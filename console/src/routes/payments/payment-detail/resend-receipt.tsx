import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { paymentKeys, resendReceipt } from '../../../api/payments';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorNotice } from '../../../components/status';

/**
 * Resend receipt: after a confirmation naming the address, the payer's receipt is queued again
 * (the API sends it once per double click). The answer's own words are shown above the payment.
 */
export function ResendReceiptAction({ paymentId, email, onSent }: { paymentId: number; email: string; onSent: (message: string) => void }) {
  const queries = useQueryClient();
  const [open, setOpen] = useState(false);
  const resend = useMutation({
    mutationFn: () => resendReceipt(paymentId),
    onSuccess: (answer) => {
      // The payment log gains a line.
      void queries.invalidateQueries({ queryKey: paymentKeys.detail(paymentId) });
      setOpen(false);
      onSent(answer.message);
    },
  });
  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => {
          resend.reset();
          setOpen(true);
        }}
      >
        Resend receipt
      </button>
      <ConfirmDialog
        open={open}
        title="Send the receipt again?"
        confirmLabel={resend.isPending ? 'Sending…' : 'Send receipt'}
        cancelLabel="Don’t send"
        busy={resend.isPending}
        onConfirm={() => resend.mutate()}
        onCancel={() => !resend.isPending && setOpen(false)}
      >
        <p>
          The payer gets their receipt at <strong className="break-anywhere">{email}</strong>, with a link to see their payments. No money moves.
        </p>
        {resend.isError && <ErrorNotice error={resend.error} />}
      </ConfirmDialog>
    </>
  );
}
