import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/api-error';
import { useSession } from '../../api/session';

/**
 * Signing in with a login and one of its application passwords (as the host platform's admin
 * does). The password goes to the service once; what comes back is an HttpOnly cookie and a nonce
 * kept in memory, never the password.
 */
export function SignIn({ reason }: { reason?: string }) {
  const session = useSession();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    document.title = 'Sign in · Checkout admin';
  }, []);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await session.signIn(login.trim(), password);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The service could not be reached.');
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <form className="card sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title" noValidate>
        <h1 id="sign-in-title">Sign in to Checkout</h1>
        {reason && !error && (
          <p className="notice" role="status">
            {reason}
          </p>
        )}
        {error && (
          <p className="notice notice-error" role="alert" tabIndex={-1} ref={errorRef} id="sign-in-error">
            {error}
          </p>
        )}
        <label className="field">
          <span className="field-label">Login</span>
          <input name="login" autoComplete="username" required value={login} onChange={(event) => setLogin(event.target.value)} aria-describedby={error ? 'sign-in-error' : undefined} />
        </label>
        <label className="field">
          <span className="field-label">Application password</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-describedby="password-help"
          />
          <span className="field-help" id="password-help">
            One of your application passwords (<code>npm run cli -- password:create</code>; the first one is printed at the first start).
          </span>
        </label>
        <button type="submit" className="button button-primary" disabled={busy || !login || !password}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
