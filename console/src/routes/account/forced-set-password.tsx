import { useT } from '../../i18n/use-t';
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
  const t = useT();
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
      setError(failure instanceof ApiError ? failure.message : t('signIn.unreachable'));
      setBusy(false);
    }
  }

  return (
    <Card title={t('forcedPassword.title')} error={error} onSubmit={submit}>
      <p>{t('forcedPassword.text')}</p>
      <NewPasswordFields {...newPassword.fields} label={t('signIn.password')} />
      <button type="submit" className="button button-primary" disabled={busy}>
        {t(busy ? 'common.saving' : 'forcedPassword.submit')}
      </button>
      <button type="button" className="button button-quiet" onClick={() => void session.signOut()}>
        {t('layout.signOut')}
      </button>
    </Card>
  );
}
