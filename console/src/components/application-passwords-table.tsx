import { useT } from '../i18n/use-t';
import type { ApplicationPassword } from '../api/team';
import { ConfirmDialog } from './confirm-dialog';
import { TableScroll } from './table-scroll';
import { Time } from './time';

/**
 * A list of application passwords with a "Revoke" button per row, and the dialog that confirms it:
 * the account screen (your own) and a team member's screen (an administrator managing theirs) show
 * the same table; each screen owns its query and its revoke call.
 */
export function ApplicationPasswordsTable({
  passwords,
  caption,
  label,
  revoking,
  busy,
  onAskRevoke,
  onConfirmRevoke,
  onCancelRevoke,
  consequence,
}: {
  passwords: ApplicationPassword[];
  /** The table's caption for screen readers. */
  caption: string;
  /** The scroll region's accessible name. */
  label: string;
  /** The password whose revocation is being confirmed, or null when no dialog is open. */
  revoking: ApplicationPassword | null;
  busy: boolean;
  onAskRevoke: (password: ApplicationPassword) => void;
  onConfirmRevoke: (password: ApplicationPassword) => void;
  onCancelRevoke: () => void;
  /** What revoking does, in the dialog's words. */
  consequence: string;
}) {
  const t = useT();
  return (
    <>
      <TableScroll label={label}>
        <table className="list-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('applicationPasswords.column.name')}</th>
              <th scope="col">{t('applicationPasswords.column.created')}</th>
              <th scope="col">{t('applicationPasswords.column.lastUsed')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('applicationPasswords.column.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {passwords.map((password) => (
              <tr key={password.uuid}>
                <th scope="row">{password.name}</th>
                <td data-label={t('applicationPasswords.column.created')}>
                  <Time iso={password.created_at} />
                </td>
                <td data-label={t('applicationPasswords.column.lastUsed')}>
                  {password.last_used_at ? (
                    <>
                      <Time iso={password.last_used_at} />
                      {password.last_ip ? ` ${t('applicationPasswords.fromIp', { ip: password.last_ip })}` : ''}
                    </>
                  ) : (
                    t('applicationPasswords.never')
                  )}
                </td>
                <td className="number">
                  <button type="button" className="button button-danger" disabled={busy} onClick={() => onAskRevoke(password)}>
                    {t('applicationPasswords.revoke')}
                    <span className="visually-hidden">{t('applicationPasswords.revokeWhich', { name: password.name })}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <ConfirmDialog
        open={revoking !== null}
        title={t('applicationPasswords.confirm.title', { name: revoking?.name ?? '' })}
        confirmLabel={t('applicationPasswords.revoke')}
        busy={busy}
        onConfirm={() => revoking && onConfirmRevoke(revoking)}
        onCancel={onCancelRevoke}
      >
        <p>{consequence}</p>
      </ConfirmDialog>
    </>
  );
}
