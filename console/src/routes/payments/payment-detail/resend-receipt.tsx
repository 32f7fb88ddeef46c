import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { paymentKeys, resendReceipt } from '../../../api/payments';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorNotice } from '../../../components/status';
import { useT } from '../../../i18n/use-t';

/**
 * Resend receipt: after a confirmation naming the address, the payer's receipt is queued again
 * (the API sends it once per double click). Said above the payment in the console's words (the API's
 * own message is English).
 */
export function ResendReceiptAction({ paymentId, email, onSent }: { paymentId: number; email: string; onSent: (message: string) => void }) {
  const t = useT();
  const queries = useQueryClient();
  const [open, setOpen] = useState(false);
  const resend = useMutation({
    mutationFn: () => resendReceipt(paymentId),
    onSuccess: () => {
      // The payment log gains a line.
      void queries.invalidateQueries({ queryKey: paymentKeys.detail(paymentId) });
      setOpen(false);
      onSent(t('payments.detail.receiptSent', { email }));
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
        {t('payments.receipt.open')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('payments.receipt.title')}
        confirmLabel={t(resend.isPending ? 'payments.receipt.sending' : 'payments.receipt.submit')}
        cancelLabel={t('payments.receipt.keep')}
        busy={resend.isPending}
        onConfirm={() => resend.mutate()}
        onCancel={() => !resend.isPending && setOpen(false)}
      >
        <p>
          <FormattedMessage id="payments.receipt.text" values={{ email, strong: (text) => <strong className="break-anywhere">{text}</strong> }} />
        </p>
        {resend.isError && <ErrorNotice error={resend.error} />}
      </ConfirmDialog>
    </>
  );
}
