import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { components } from '../../../../../clients/typescript/index';
import { ApiError } from '../../../api/api-error';
import { formErrorsOf } from '../../../api/field-errors';
import { paymentKeys, refundPayment } from '../../../api/payments';
import { FieldError, invalid } from '../../../components/fields';
import { ErrorNotice } from '../../../components/status';
import { money } from '../../../format';
import { useT } from '../../../i18n/use-t';
import { parseRefundAmount, REFUND_REASONS, type RefundReason, refundableInput, refundReasonWords } from '../common/money-after-model';

type Payment = components['schemas']['AdminPaymentDetailDto'];
type Refund = components['schemas']['RefundDto'];

const FIELDS = ['amount', 'reason', 'note'] as const;
type Field = (typeof FIELDS)[number];

/**
 * The Refund action: a button, then a modal dialog in two steps (the amount, a reason and a note;
 * then "Refund €12.50 to the payer?"). Each confirmation gets one fresh Idempotency-Key, so a double
 * click or a retry of that confirmation refunds once.
 */
export function RefundAction({ payment, onRefunded }: { payment: Payment; onRefunded: (refund: Refund) => void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
        {t('payments.refund.open')}
      </button>
      {open && (
        <RefundDialog
          payment={payment}
          onClose={(refund) => {
            setOpen(false);
            if (refund) onRefunded(refund);
          }}
        />
      )}
    </>
  );
}

function RefundDialog({ payment, onClose }: { payment: Payment; onClose: (refund?: Refund) => void }) {
  const t = useT();
  const queries = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const confirmHeading = useRef<HTMLParagraphElement>(null);
  const titleId = useId();
  const prefix = useId();
  const id = (field: Field) => `${prefix}-${field}`;

  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const [amount, setAmount] = useState(() => refundableInput(payment.refundable_amount, payment.currency));
  const [reason, setReason] = useState<RefundReason | ''>('');
  const [note, setNote] = useState('');
  const [amountError, setAmountError] = useState<string>();
  const [minor, setMinor] = useState(0);
  // One key per confirmation: made when the confirmation step opens, kept for its retries.
  const [idempotencyKey, setIdempotencyKey] = useState('');
  // A second click lands before React re-renders the disabled button: the request goes once.
  const sending = useRef(false);

  const refund = useMutation({
    onSettled: () => {
      sending.current = false;
    },
    mutationFn: () =>
      refundPayment(payment.id, { amount: minor, ...(reason ? { reason } : {}), ...(note.trim() ? { note: note.trim() } : {}) }, idempotencyKey),
    onSuccess: (result) => {
      queries.setQueryData(paymentKeys.detail(payment.id), result.payment);
      void queries.invalidateQueries({ queryKey: paymentKeys.all });
      onClose(result.refund);
    },
    onError: (error) => {
      // A refusal about a field goes back to the form, at that field.
      if (formErrorsOf(error, FIELDS).first) setStep('form');
    },
  });
  const errors = formErrorsOf(refund.error, FIELDS);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    opener.current = document.activeElement;
    element.showModal();
    amountInput.current?.select();
    return () => {
      element.close();
      if (opener.current instanceof HTMLElement) opener.current.focus();
    };
  }, []);

  useEffect(() => {
    if (step === 'confirm') confirmHeading.current?.focus();
    else if (errors.first) document.getElementById(id(errors.first))?.focus();
    // Runs when the step changes or a new refusal arrives.
  }, [step, refund.error]);

  const close = () => {
    if (!refund.isPending) onClose();
  };

  const review = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseRefundAmount(amount, payment.currency, payment.refundable_amount, t);
    if ('error' in parsed) {
      setAmountError(parsed.error);
      amountInput.current?.focus();
      return;
    }
    setAmountError(undefined);
    setMinor(parsed.minor);
    setIdempotencyKey(crypto.randomUUID());
    refund.reset();
    setStep('confirm');
  };

  const send = () => {
    if (sending.current) return;
    sending.current = true;
    refund.mutate();
  };

  const amountMessage = amountError ?? errors.fields.amount;
  const shown = money(minor, payment.currency);
  const otherError = refund.error && (errors.notice || !(refund.error instanceof ApiError)) ? refund.error : null;

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <h2 id={titleId}>{t('payments.refund.title', { id: String(payment.id) })}</h2>
      {step === 'form' ? (
        <form onSubmit={review} noValidate>
          <p className="muted">
            {payment.amount_refunded > 0
              ? t('payments.refund.refundableAlready', { amount: money(payment.refundable_amount, payment.currency), already: money(payment.amount_refunded, payment.currency) })
              : t('payments.refund.refundable', { amount: money(payment.refundable_amount, payment.currency) })}
          </p>
          <div className="field">
            <label className="field-label" htmlFor={id('amount')}>
              {t('payments.refund.amountLabel', { currency: payment.currency.toUpperCase() })}
            </label>
            <input
              ref={amountInput}
              id={id('amount')}
              name="amount"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              {...invalid(amountMessage, id('amount'))}
            />
            <FieldError id={id('amount')} message={amountMessage} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={id('reason')}>
              {t('payments.refund.reason')}
            </label>
            <select id={id('reason')} name="reason" value={reason} onChange={(event) => setReason(event.target.value as RefundReason | '')} {...invalid(errors.fields.reason, id('reason'))}>
              <option value="">{t('payments.refund.noReason')}</option>
              {REFUND_REASONS.map((value) => (
                <option key={value} value={value}>
                  {refundReasonWords(value, t)}
                </option>
              ))}
            </select>
            <FieldError id={id('reason')} message={errors.fields.reason} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={id('note')}>
              {t('payments.refund.note')}
            </label>
            <span className="field-help" id={`${id('note')}-help`}>
              {t('payments.refund.noteHelp')}
            </span>
            <textarea
              id={id('note')}
              name="note"
              rows={2}
              maxLength={500}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              aria-describedby={errors.fields.note ? `${id('note')}-error` : `${id('note')}-help`}
              aria-invalid={errors.fields.note ? true : undefined}
            />
            <FieldError id={id('note')} message={errors.fields.note} />
          </div>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={close}>
              {t('payments.refund.cancel')}
            </button>
            <button type="submit" className="button button-primary">
              {t('payments.refund.continue')}
            </button>
          </div>
        </form>
      ) : (
        <div>
          <p ref={confirmHeading} tabIndex={-1} className="dialog-question">
            {t('payments.refund.question', { amount: shown })}
          </p>
          <p className="muted">{t('payments.refund.final')}</p>
          {otherError && <ErrorNotice error={otherError} />}
          <div className="dialog-actions">
            <button type="button" className="button" disabled={refund.isPending} onClick={() => setStep('form')}>
              {t('payments.refund.back')}
            </button>
            <button type="button" className="button button-danger" disabled={refund.isPending} onClick={send}>
              {refund.isPending ? t('payments.refund.refunding') : t('payments.refund.submit', { amount: shown })}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
