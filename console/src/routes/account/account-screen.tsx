import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { accountKeys, changePassword, confirmTwoFactor, disableTwoFactor, renewRecoveryCodes, startTwoFactor, twoFactorQuery } from '../../api/account';
import { ApiError } from '../../api/api-error';
import { useSession } from '../../api/session';
import { Page } from '../../components/page';
import { QueryView } from '../../components/status';
import { OtpQrCode } from './otp-qr-code';
import { OwnApplicationPasswords } from './own-application-passwords';
import { NewPasswordFields, useNewPassword } from './password-fields';

function message(error: unknown): string | null {
  if (!error) return null;
  return error instanceof ApiError ? error.message + (Object.values(error.params).length ? ` ${Object.values(error.params).join(' ')}` : '') : 'The service could not be reached.';
}

/** `/account`: the signed-in user's own password, two-factor sign-in and application passwords. */
export function AccountScreen() {
  const session = useSession();
  const user = session.state.status === 'signed-in' ? session.state.user : null;
  return (
    <Page title="Your account">
      <p>
        Signed in as <strong>{user?.display_name || user?.login}</strong> (login <code>{user?.login}</code>).
      </p>
      <ChangePassword />
      <TwoFactor />
      <OwnApplicationPasswords />
    </Page>
  );
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const newPassword = useNewPassword();
  const change = useMutation({
    mutationFn: () => changePassword({ current_password: current, new_password: newPassword.password }),
    onSuccess: () => {
      setCurrent('');
      newPassword.clear();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (newPassword.accept()) change.mutate();
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="change-password-title" noValidate>
      <h2 id="change-password-title">Change your password</h2>
      {change.isSuccess && (
        <p className="notice notice-success" role="status">
          {change.data.message}
        </p>
      )}
      {change.isError && (
        <p className="notice notice-error" role="alert">
          {message(change.error)}
        </p>
      )}
      <label className="field">
        <span className="field-label">Current password</span>
        <input name="current-password" type="password" autoComplete="current-password" required value={current} onChange={(event) => setCurrent(event.target.value)} />
      </label>
      <NewPasswordFields {...newPassword.fields} />
      <button type="submit" className="button button-primary" disabled={change.isPending || !current}>
        {change.isPending ? 'Saving…' : 'Change password'}
      </button>
    </form>
  );
}

type Enrolment = { step: 'idle' } | { step: 'secret'; secret: string; uri: string } | { step: 'codes'; codes: string[]; renewed: boolean };

function TwoFactor() {
  const queries = useQueryClient();
  const status = useQuery(twoFactorQuery);
  const [enrolment, setEnrolment] = useState<Enrolment>({ step: 'idle' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const refresh = () => queries.invalidateQueries({ queryKey: accountKeys.twoFactor });
  const start = useMutation({
    mutationFn: () => startTwoFactor(password),
    onSuccess: (answer) => {
      setPassword('');
      setEnrolment({ step: 'secret', secret: answer.secret, uri: answer.otpauth_uri });
    },
  });
  const confirm = useMutation({
    mutationFn: () => confirmTwoFactor(code.trim()),
    onSuccess: (answer) => {
      setCode('');
      setEnrolment({ step: 'codes', codes: answer.recovery_codes, renewed: false });
      void refresh();
    },
  });
  const [proof, setProof] = useState('');
  const renew = useMutation({
    // A 6-digit answer is a code of the app: an account password has at least 12 characters.
    mutationFn: () => renewRecoveryCodes(/^\d{6}$/.test(proof.trim()) ? { code: proof.trim() } : { password: proof }),
    onSuccess: (answer) => {
      setProof('');
      setEnrolment({ step: 'codes', codes: answer.recovery_codes, renewed: true });
      void refresh();
    },
  });
  const disable = useMutation({
    mutationFn: () => disableTwoFactor({ password, code: code.trim() }),
    onSuccess: () => {
      setPassword('');
      setCode('');
      void refresh();
    },
  });

  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <p>With two-factor sign-in on, signing in also asks for a code from an authenticator app on your phone, so a stolen password alone is not enough.</p>
      <QueryView query={status} what="status.loading.twoFactor">
        {(state) => {
          if (enrolment.step === 'codes') {
            return (
              <div className="notice notice-success" role="status">
                <p className="notice-title">{enrolment.renewed ? 'New recovery codes: the old ones no longer work.' : 'Two-factor sign-in is on.'}</p>
                <p>Keep these recovery codes somewhere safe (a password manager, or on paper). Each one signs you in once if you lose your phone. They are shown only now.</p>
                <ul className="recovery-codes">
                  {enrolment.codes.map((value) => (
                    <li key={value}>
                      <code>{value}</code>
                    </li>
                  ))}
                </ul>
                <button type="button" className="button" onClick={() => setEnrolment({ step: 'idle' })}>
                  I have saved them
                </button>
              </div>
            );
          }
          if (state.enabled) {
            return (
              <>
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  disable.mutate();
                }}
                noValidate
              >
                <p className="notice notice-success">
                  On since {state.enabled_at ? new Date(state.enabled_at).toLocaleDateString() : '—'}; {state.recovery_codes_left} recovery codes left.
                </p>
                {disable.isError && (
                  <p className="notice notice-error" role="alert">
                    {message(disable.error)}
                  </p>
                )}
                <label className="field">
                  <span className="field-label">Your password</span>
                  <input name="disable-password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
                </label>
                <label className="field">
                  <span className="field-label">Code from your app, or a recovery code</span>
                  <input name="disable-code" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} />
                </label>
                <button type="submit" className="button" disabled={disable.isPending || !password || !code.trim()}>
                  Turn off two-factor sign-in
                </button>
              </form>
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  renew.mutate();
                }}
                aria-labelledby="renew-codes-title"
                noValidate
              >
                <h3 id="renew-codes-title">New recovery codes</h3>
                <p>Used some, or fear someone saw them? Make ten new ones: the old ones stop working at once.</p>
                {renew.isError && (
                  <p className="notice notice-error" role="alert">
                    {message(renew.error)}
                  </p>
                )}
                <label className="field">
                  <span className="field-label">Your password, or a code from your app</span>
                  <input name="renew-proof" type="password" autoComplete="current-password" value={proof} onChange={(event) => setProof(event.target.value)} />
                </label>
                <button type="submit" className="button" disabled={renew.isPending || !proof.trim()}>
                  Make new recovery codes
                </button>
              </form>
              </>
            );
          }
          if (enrolment.step === 'secret') {
            return (
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  confirm.mutate();
                }}
                noValidate
              >
                <ol>
                  <li>
                    Scan this QR code with your authenticator app:
                    <OtpQrCode uri={enrolment.uri} />
                    Or add an account with this key (or <a href={enrolment.uri}>open it in the app</a> on this device):{' '}
                    <code className="secret">{enrolment.secret.match(/.{1,4}/g)?.join(' ')}</code>
                  </li>
                  <li>Enter the 6-digit code the app shows.</li>
                </ol>
                {confirm.isError && (
                  <p className="notice notice-error" role="alert">
                    {message(confirm.error)}
                  </p>
                )}
                <label className="field">
                  <span className="field-label">Code from your app</span>
                  <input name="confirm-code" autoComplete="one-time-code" inputMode="numeric" value={code} onChange={(event) => setCode(event.target.value)} />
                </label>
                <button type="submit" className="button button-primary" disabled={confirm.isPending || !code.trim()}>
                  Turn on
                </button>
              </form>
            );
          }
          return (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                start.mutate();
              }}
              noValidate
            >
              <p>Off.</p>
              {start.isError && (
                <p className="notice notice-error" role="alert">
                  {message(start.error)}
                </p>
              )}
              <label className="field">
                <span className="field-label">Your password</span>
                <input name="enrol-password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
              </label>
              <button type="submit" className="button button-primary" disabled={start.isPending || !password}>
                Set up two-factor sign-in
              </button>
            </form>
          );
        }}
      </QueryView>
    </section>
  );
}
