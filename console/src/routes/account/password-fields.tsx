import { useId, useState } from 'react';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** What is wrong with a new password and its repetition, or null (the service checks the length again). */
export function newPasswordProblem(password: string, repeated: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  if (password !== repeated) return 'The two passwords are not the same.';
  return null;
}

/**
 * The state of a new password and its repetition: `fields` for NewPasswordFields, `accept()` says
 * whether they may be sent (and shows what is wrong otherwise), `clear()` empties them.
 */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  return {
    password,
    fields: { password, repeated, onPassword: setPassword, onRepeated: setRepeated, error: problem },
    accept(): boolean {
      const wrong = newPasswordProblem(password, repeated);
      setProblem(wrong ?? undefined);
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
  label = 'New password',
}: {
  password: string;
  repeated: string;
  onPassword(value: string): void;
  onRepeated(value: string): void;
  error?: string;
  label?: string;
}) {
  const id = useId();
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-password`}>
          {label}
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
          At least {PASSWORD_MIN} characters. Any characters, spaces too: a few words you will remember make a good password.
        </span>
      </div>
      <label className="field">
        <span className="field-label">Repeat the password</span>
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
