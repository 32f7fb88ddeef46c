import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { checkSetPasswordLink, linkToken, setPasswordWithLink } from '../../api/account';
import { ApiError } from '../../api/api-error';
import { useSession } from '../../api/session';
import { Card } from '../session/sign-in';
import { NewPasswordFields, useNewPassword } from './password-fields';

const TITLES = { setup: 'Create your account', invite: 'Welcome to Checkout', reset: 'Choose a new password' } as const;

/**
 * `/admin/set-password#token=…`: the screen of a set-password link — the first administrator's
 * setup link (printed at the first start), a teammate's invitation, or a password reset. It asks
 * what the link is for, takes the new password (and, for a new account, a name and an email
 * address), then signs in with it.
 */
export function SetPasswordLinkScreen() {
  const session = useSession();
  const token = linkToken();
  const link = useQuery({ queryKey: ['set-password-link', token], queryFn: () => checkSetPasswordLink(token!), enabled: token !== null, retry: false, staleTime: Infinity });
  const newPassword = useNewPassword();
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!token || link.isError) {
    return (
      <Card title="This link does not work" error={null} onSubmit={(event) => event.preventDefault()}>
        <p>{link.error instanceof ApiError ? link.error.message : 'The link is incomplete. Open it from the email again, or ask for a new one.'}</p>
        <a className="button" href="/admin/">
          Go to sign-in
        </a>
      </Card>
    );
  }
  if (!link.data) {
    return (
      <Card title="Checking the link…" error={null} onSubmit={(event) => event.preventDefault()}>
        <p role="status">One moment.</p>
      </Card>
    );
  }
  const info = link.data;
  const newAccount = info.purpose !== 'reset';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!newPassword.accept()) return;
    const password = newPassword.password;
    setBusy(true);
    setError(null);
    try {
      const done = await setPasswordWithLink({
        token: token!,
        password,
        ...(newAccount && displayName.trim() ? { display_name: displayName.trim() } : {}),
        ...(newAccount && email.trim() ? { email: email.trim() } : {}),
      });
      // Signed in with the new password (the cookie is set), then the console starts afresh at /admin/
      // without the token in the address; when two-factor is on, its sign-in screen asks for the code.
      await session.signIn(done.login, password).catch(() => null);
      window.location.replace('/admin/');
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The service could not be reached.');
      setBusy(false);
    }
  }

  return (
    <Card title={TITLES[info.purpose]} error={error} onSubmit={submit}>
      <p>
        {info.purpose === 'setup'
          ? 'You are the first administrator of this Checkout. Choose the password you will sign in with.'
          : info.purpose === 'invite'
            ? 'You were invited to this Checkout. Choose the password you will sign in with.'
            : 'Choose a new password for your account.'}{' '}
        Your login is <strong>{info.login}</strong>.
      </p>
      {newAccount && (
        <>
          <label className="field">
            <span className="field-label">Your name</span>
            <input name="display-name" autoComplete="name" value={displayName} placeholder={info.display_name} onChange={(event) => setDisplayName(event.target.value)} />
          </label>
          <label className="field">
            <span className="field-label">Email address</span>
            <input name="email" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} aria-describedby="email-help" />
            <span className="field-help" id="email-help">
              Where a link goes when you forget your password.
            </span>
          </label>
        </>
      )}
      <NewPasswordFields {...newPassword.fields} label="Password" />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Saving…' : newAccount ? 'Create my account' : 'Save the new password'}
      </button>
    </Card>
  );
}
