import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { requestPasswordReset } from '../../api/account';
import { ApiError } from '../../api/api-error';
import { type SignedOutReason, useSession } from '../../api/session';
import { LanguageSwitch } from '../../components/language-switch';

type Step = { kind: 'password' } | { kind: 'two-factor'; challenge: string } | { kind: 'forgot' } | { kind: 'reset-sent'; message: string };

/**
 * Signing in: a login and the account password (an application password works too), then the
 * code of the authenticator app when two-factor sign-in is on; "Forgot your password?" asks for
 * an emailed link. What comes back is an HttpOnly cookie and a nonce kept in memory, never the
 * password.
 */
export function SignIn({ reason }: { reason?: SignedOutReason }) {
  const intl = useIntl();
  const session = useSession();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = intl.formatMessage({ id: step.kind === 'two-factor' ? 'signIn.twoFactor.documentTitle' : step.kind === 'password' ? 'signIn.documentTitle' : 'signIn.forgot.documentTitle' });
  }, [step.kind, intl]);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : intl.formatMessage({ id: 'signIn.unreachable' }));
    } finally {
      setBusy(false);
    }
  }

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    void run(async () => {
      const challenge = await session.signIn(login.trim(), password);
      if (challenge) {
        setPassword('');
        setCode('');
        setStep({ kind: 'two-factor', challenge: challenge.challenge });
      }
    });
  }

  function submitCode(event: FormEvent) {
    event.preventDefault();
    if (step.kind !== 'two-factor') return;
    void run(async () => {
      try {
        await session.signInTwoFactor(step.challenge, code.trim());
      } catch (failure) {
        // The challenge ended (too many codes, too late): back to the password.
        if (failure instanceof ApiError && failure.code === 'checkout_two_factor_expired') setStep({ kind: 'password' });
        throw failure;
      }
    });
  }

  function submitForgot(event: FormEvent) {
    event.preventDefault();
    void run(async () => setStep({ kind: 'reset-sent', message: (await requestPasswordReset(login.trim())).message }));
  }

  if (step.kind === 'two-factor') {
    return (
      <Card title={intl.formatMessage({ id: 'signIn.twoFactor.title' })} error={error} onSubmit={submitCode}>
        <label className="field">
          <span className="field-label">
            <FormattedMessage id="signIn.twoFactor.code" />
          </span>
          <input
            name="code"
            autoComplete="one-time-code"
            inputMode="text"
            required
            autoFocus
            value={code}
            onChange={(event) => setCode(event.target.value)}
            aria-describedby="code-help"
          />
          <span className="field-help" id="code-help">
            <FormattedMessage id="signIn.twoFactor.codeHelp" />
          </span>
        </label>
        <button type="submit" className="button button-primary" disabled={busy || !code.trim()}>
          <FormattedMessage id={busy ? 'signIn.twoFactor.checking' : 'signIn.submit'} />
        </button>
        <button type="button" className="button button-quiet" onClick={() => setStep({ kind: 'password' })}>
          <FormattedMessage id="signIn.twoFactor.back" />
        </button>
      </Card>
    );
  }

  if (step.kind === 'forgot' || step.kind === 'reset-sent') {
    return (
      <Card title={intl.formatMessage({ id: 'signIn.forgot.title' })} error={error} onSubmit={submitForgot}>
        {step.kind === 'reset-sent' ? (
          <p className="notice notice-success" role="status">
            {step.message}
          </p>
        ) : (
          <>
            <p>
              <FormattedMessage id="signIn.forgot.intro" />
            </p>
            <label className="field">
              <span className="field-label">
                <FormattedMessage id="signIn.forgot.login" />
              </span>
              <input name="login" autoComplete="username" required value={login} onChange={(event) => setLogin(event.target.value)} />
            </label>
            <button type="submit" className="button button-primary" disabled={busy || !login.trim()}>
              <FormattedMessage id={busy ? 'signIn.forgot.sending' : 'signIn.forgot.submit'} />
            </button>
          </>
        )}
        <button type="button" className="button button-quiet" onClick={() => setStep({ kind: 'password' })}>
          <FormattedMessage id="signIn.forgot.back" />
        </button>
      </Card>
    );
  }

  return (
    <Card
      title={intl.formatMessage({ id: 'signIn.title' })}
      error={error}
      notice={reason && intl.formatMessage({ id: reason === 'expired' ? 'signIn.reason.expired' : 'signIn.reason.signedOut' })}
      onSubmit={submitPassword}
    >
      <label className="field">
        <span className="field-label">
          <FormattedMessage id="signIn.login" />
        </span>
        <input name="login" autoComplete="username" required value={login} onChange={(event) => setLogin(event.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">
          <FormattedMessage id="signIn.password" />
        </span>
        <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
      </label>
      <button type="submit" className="button button-primary" disabled={busy || !login || !password}>
        <FormattedMessage id={busy ? 'signIn.signingIn' : 'signIn.submit'} />
      </button>
      <button type="button" className="button button-quiet" onClick={() => setStep({ kind: 'forgot' })}>
        <FormattedMessage id="signIn.forgot.link" />
      </button>
    </Card>
  );
}

/** The card every signed-out step shares: its title, the error (announced and focused) and a notice. */
export function Card({ title, error, notice, onSubmit, children }: { title: string; error: string | null; notice?: string; onSubmit(event: FormEvent): void; children: ReactNode }) {
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  return (
    <main id="main" className="sign-in">
      <form className="card sign-in-card" onSubmit={onSubmit} aria-labelledby="sign-in-title" noValidate>
        <h1 id="sign-in-title">{title}</h1>
        {notice && !error && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {error && (
          <p className="notice notice-error" role="alert" tabIndex={-1} ref={errorRef}>
            {error}
          </p>
        )}
        {children}
        <LanguageSwitch />
      </form>
    </main>
  );
}
