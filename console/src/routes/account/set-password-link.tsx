import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { checkSetPasswordLink, linkToken, setPasswordWithLink } from '../../api/account';
import { FormattedMessage } from 'react-intl';
import { ApiError } from '../../api/api-error';
import { useSession } from '../../api/session';
import { useT } from '../../i18n/use-t';
import { Card } from '../session/sign-in';
import { NewPasswordFields, useNewPassword } from './password-fields';

/**
 * `/admin/set-password#token=…`: the screen of a set-password link — the first administrator's
 * setup link (printed at the first start), a teammate's invitation, or a password reset. It asks
 * what the link is for, takes the new password (and, for a new account, a name and an email
 * address), then signs in with it.
 */
export function SetPasswordLinkScreen() {
  const t = useT();
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
      <Card title={t('setPassword.broken.title')} error={null} onSubmit={(event) => event.preventDefault()}>
        <p>{link.error instanceof ApiError ? link.error.message : t('setPassword.broken.incomplete')}</p>
        <a className="button" href="/admin/">
          {t('setPassword.broken.signIn')}
        </a>
      </Card>
    );
  }
  if (!link.data) {
    return (
      <Card title={t('setPassword.checking.title')} error={null} onSubmit={(event) => event.preventDefault()}>
        <p role="status">{t('setPassword.checking.text')}</p>
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
      setError(failure instanceof ApiError ? failure.message : t('setPassword.unreachable'));
      setBusy(false);
    }
  }

  return (
    <Card title={t('setPassword.title', { purpose: info.purpose })} error={error} onSubmit={submit}>
      <p>
        <FormattedMessage id="setPassword.intro" values={{ purpose: info.purpose, login: info.login, strong: (chunks) => <strong>{chunks}</strong> }} />
      </p>
      {newAccount && (
        <>
          <label className="field">
            <span className="field-label">{t('setPassword.name')}</span>
            <input name="display-name" autoComplete="name" value={displayName} placeholder={info.display_name} onChange={(event) => setDisplayName(event.target.value)} />
          </label>
          <label className="field">
            <span className="field-label">{t('setPassword.email')}</span>
            <input name="email" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} aria-describedby="email-help" />
            <span className="field-help" id="email-help">
              {t('setPassword.emailHelp')}
            </span>
          </label>
        </>
      )}
      <NewPasswordFields {...newPassword.fields} label={t('setPassword.password')} />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? t('common.saving') : newAccount ? t('setPassword.submit.create') : t('setPassword.submit.save')}
      </button>
    </Card>
  );
}
