import { type FormEvent, useState } from 'react';
import { changePassword } from '../../api/account';
import { ApiError } from '../../api/api-error';
import { useSession } from '../../api/session';
import { Card } from '../session/sign-in';
import { NewPasswordFields, useNewPassword } from './password-fields';

/**
 * Shown first to a user who signed in with an application password and has no account password
 * yet (`must_set_password` of the session): they choose one before anything else.
 */
export function ForcedSetPasswordScreen() {
  const session = useSession();
  const newPassword = useNewPassword();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!newPassword.accept()) return;
    setBusy(true);
    setError(null);
    try {
      await changePassword({ new_password: newPassword.password });
      session.passwordSet();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The service could not be reached.');
      setBusy(false);
    }
  }

  return (
    <Card title="Choose your password" error={error} onSubmit={submit}>
      <p>You signed in with an application password. Choose the password you will sign in with from now on; application passwords stay for scripts and API clients.</p>
      <NewPasswordFields {...newPassword.fields} label="Password" />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save and continue'}
      </button>
      <button type="button" className="button button-quiet" onClick={() => void session.signOut()}>
        Sign out
      </button>
    </Card>
  );
}
