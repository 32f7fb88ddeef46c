import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CopyField } from '../../components/copy-field';

/**
 * A signing secret, the one time the API answers it (a new endpoint, a rotation): a copy button,
 * and plainly that it will not be shown again. Focus lands here when it appears. The secret lives
 * in this component's props only: "I have stored it" (or leaving the screen) forgets it.
 */
export function SecretReveal({ title, secret, children, onDone }: { title: string; secret: string; children?: ReactNode; onDone: () => void }) {
  const region = useRef<HTMLElement>(null);
  const titleId = useId();
  useEffect(() => {
    region.current?.focus();
  }, [secret]);
  return (
    <section ref={region} tabIndex={-1} className="card secret-reveal focus-target" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <div className="notice notice-warning">
        <p className="notice-title">Copy it now: you will not see it again.</p>
        <p>
          Store it with your receiver. It checks each event's <code>Checkout-Signature</code> header with this secret; this console and the API never show it
          again (if it is lost, rotate the secret to get a new one).
        </p>
      </div>
      {children}
      <CopyField id="webhook-secret" label="Signing secret" value={secret} />
      <button type="button" className="button button-primary" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
