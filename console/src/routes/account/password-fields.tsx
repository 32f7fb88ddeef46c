import { useT } from '../../i18n/use-t';
import { useId, useState } from 'react';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** What is wrong with a new password and its repetition, or null (the service checks the length again). */
/** What is wrong with a new password, as the message id that says it (null: nothing). */
export function newPasswordProblem(password: string, repeated: string): 'password.tooShort' | 'password.tooLong' | 'password.notSame' | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return 'password.tooShort';
  if (length > PASSWORD_MAX) return 'password.tooLong';
  if (password !== repeated) return 'password.notSame';
  return null;
}

/**
 * The state of a new password and its repetition: `fields` for NewPasswordFields, `accept()` says
 * whether they may be sent (and shows what is wrong otherwise), `clear()` empties them.
 */
export function useNewPassword() {
  const t = useT();
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  return {
    password,
    fields: { password, repeated, onPassword: setPassword, onRepeated: setRepeated, error: problem },
    accept(): boolean {
      const wrong = newPasswordProblem(password, repeated);
      setProblem(wrong ? t(wrong, { min: PASSWORD_MIN, max: PASSWORD_MAX }) : undefined);
      return wrong === null;
    },
    clear(): void {
      setPassword('');
      setRepeated('');
    },
  };
}

/** A new password and its repetition, with the one rule said plainly (length only, any characters). */
export function NewPasswordFields({
  password,
  repeated,
  onPassword,
  onRepeated,
  error,
  label,
}: {
  password: string;
  repeated: string;
  onPassword(value: string): void;
  onRepeated(value: string): void;
  error?: string;
  label?: string;
}) {
  const id = useId();
  const t = useT();
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-password`}>
          {label ?? t('password.new')}
        </label>
        <input
          id={`${id}-password`}
          name="new-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX * 2}
          value={password}
          onChange={(event) => onPassword(event.target.value)}
          aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
        />
        <span className="field-help" id={`${id}-help`}>
          {t('password.help', { min: PASSWORD_MIN })}
        </span>
      </div>
      <label className="field">
        <span className="field-label">{t('password.repeat')}</span>
        <input name="repeat-password" type="password" autoComplete="new-password" required value={repeated} onChange={(event) => onRepeated(event.target.value)} />
      </label>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </>
  );
}
