import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { accountKeys, changePassword, confirmTwoFactor, disableTwoFactor, renewRecoveryCodes, startTwoFactor, twoFactorQuery } from '../../api/account';
import { ApiError } from '../../api/api-error';
import { useSession } from '../../api/session';
import { LanguageSwitch } from '../../components/language-switch';
import { Page } from '../../components/page';
import { useT } from '../../i18n/use-t';
import { getDisplayLocale } from '../../format';
import { QueryView } from '../../components/status';
import { OtpQrCode } from './otp-qr-code';
import { OwnApplicationPasswords } from './own-application-passwords';
import { NewPasswordFields, useNewPassword } from './password-fields';

function message(error: unknown, t: ReturnType<typeof useT>): string | null {
  if (!error) return null;
  return error instanceof ApiError ? error.message + (Object.values(error.params).length ? ` ${Object.values(error.params).join(' ')}` : '') : t('signIn.unreachable');
}

/** `/account`: the signed-in user's own password, two-factor sign-in and application passwords. */
export function AccountScreen() {
  const session = useSession();
  const user = session.state.status === 'signed-in' ? session.state.user : null;
  const t = useT();
  return (
    <Page title={t('layout.account')}>
      <p>
        <FormattedMessage
          id="account.signedInAs"
          values={{ name: user?.display_name || user?.login || '', login: user?.login ?? '', strong: (chunks) => <strong>{chunks}</strong>, code: (chunks) => <code>{chunks}</code> }}
        />
      </p>
      <section className="card" aria-labelledby="language-title">
        <h2 id="language-title">{t('account.language.title')}</h2>
        <p>{t('account.language.text')}</p>
        <LanguageSwitch visibleLabel />
      </section>
      <ChangePassword />
      <TwoFactor />
      <OwnApplicationPasswords />
    </Page>
  );
}

function ChangePassword() {
  const t = useT();
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
      <h2 id="change-password-title">{t('account.password.title')}</h2>
      {change.isSuccess && (
        <p className="notice notice-success" role="status">
          {change.data.message}
        </p>
      )}
      {change.isError && (
        <p className="notice notice-error" role="alert">
          {message(change.error, t)}
        </p>
      )}
      <label className="field">
        <span className="field-label">{t('account.password.current')}</span>
        <input name="current-password" type="password" autoComplete="current-password" required value={current} onChange={(event) => setCurrent(event.target.value)} />
      </label>
      <NewPasswordFields {...newPassword.fields} />
      <button type="submit" className="button button-primary" disabled={change.isPending || !current}>
        {t(change.isPending ? 'common.saving' : 'account.password.submit')}
      </button>
    </form>
  );
}

type Enrolment = { step: 'idle' } | { step: 'secret'; secret: string; uri: string } | { step: 'codes'; codes: string[]; renewed: boolean };

function TwoFactor() {
  const t = useT();
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
      <h2 id="two-factor-title">{t('signIn.twoFactor.title')}</h2>
      <p>{t('account.twoFactor.intro')}</p>
      <QueryView query={status} what="status.loading.twoFactor">
        {(state) => {
          if (enrolment.step === 'codes') {
            return (
              <div className="notice notice-success" role="status">
                <p className="notice-title">{t(enrolment.renewed ? 'account.twoFactor.renewed' : 'account.twoFactor.on')}</p>
                <p>{t('account.twoFactor.keepCodes')}</p>
                <ul className="recovery-codes">
                  {enrolment.codes.map((value) => (
                    <li key={value}>
                      <code>{value}</code>
                    </li>
                  ))}
                </ul>
                <button type="button" className="button" onClick={() => setEnrolment({ step: 'idle' })}>
                  {t('account.twoFactor.saved')}
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
                  {t('account.twoFactor.onSince', { since: state.enabled_at ? new Date(state.enabled_at).toLocaleDateString(getDisplayLocale()) : '—', left: state.recovery_codes_left })}
                </p>
                {disable.isError && (
                  <p className="notice notice-error" role="alert">
                    {message(disable.error, t)}
                  </p>
                )}
                <label className="field">
                  <span className="field-label">{t('account.twoFactor.password')}</span>
                  <input name="disable-password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
                </label>
                <label className="field">
                  <span className="field-label">{t('account.twoFactor.disableCode')}</span>
                  <input name="disable-code" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} />
                </label>
                <button type="submit" className="button" disabled={disable.isPending || !password || !code.trim()}>
                  {t('account.twoFactor.disable')}
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
                <h3 id="renew-codes-title">{t('account.twoFactor.renew.title')}</h3>
                <p>{t('account.twoFactor.renew.text')}</p>
                {renew.isError && (
                  <p className="notice notice-error" role="alert">
                    {message(renew.error, t)}
                  </p>
                )}
                <label className="field">
                  <span className="field-label">{t('account.twoFactor.renew.proof')}</span>
                  <input name="renew-proof" type="password" autoComplete="current-password" value={proof} onChange={(event) => setProof(event.target.value)} />
                </label>
                <button type="submit" className="button" disabled={renew.isPending || !proof.trim()}>
                  {t('account.twoFactor.renew.submit')}
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
                    {t('account.twoFactor.scan')}
                    <OtpQrCode uri={enrolment.uri} />
                    <FormattedMessage id="account.twoFactor.key" values={{ link: (chunks) => <a href={enrolment.uri}>{chunks}</a> }} />{' '}
                    <code className="secret">{enrolment.secret.match(/.{1,4}/g)?.join(' ')}</code>
                  </li>
                  <li>{t('account.twoFactor.enterCode')}</li>
                </ol>
                {confirm.isError && (
                  <p className="notice notice-error" role="alert">
                    {message(confirm.error, t)}
                  </p>
                )}
                <label className="field">
                  <span className="field-label">{t('account.twoFactor.code')}</span>
                  <input name="confirm-code" autoComplete="one-time-code" inputMode="numeric" value={code} onChange={(event) => setCode(event.target.value)} />
                </label>
                <button type="submit" className="button button-primary" disabled={confirm.isPending || !code.trim()}>
                  {t('account.twoFactor.turnOn')}
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
              <p>{t('account.twoFactor.off')}</p>
              {start.isError && (
                <p className="notice notice-error" role="alert">
                  {message(start.error, t)}
                </p>
              )}
              <label className="field">
                <span className="field-label">{t('account.twoFactor.password')}</span>
                <input name="enrol-password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
              </label>
              <button type="submit" className="button button-primary" disabled={start.isPending || !password}>
                {t('account.twoFactor.setUp')}
              </button>
            </form>
          );
        }}
      </QueryView>
    </section>
  );
}
