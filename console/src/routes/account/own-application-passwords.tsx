import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accountKeys, ownApplicationPasswordsQuery, revokeOwnApplicationPassword } from '../../api/account';
import type { ApplicationPassword } from '../../api/team';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Empty, ErrorNotice, QueryView, Success } from '../../components/status';
import { TableScroll } from '../../components/table-scroll';
import { Time } from '../../components/time';

/**
 * The account screen's "Your application passwords": every role lists its own and revokes them
 * (GET/DELETE /auth/application-passwords); creating one, or managing a teammate's, stays on the
 * team screen (administrators).
 */
export function OwnApplicationPasswords() {
  const queries = useQueryClient();
  const passwords = useQuery(ownApplicationPasswordsQuery);
  const [revoking, setRevoking] = useState<ApplicationPassword | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const revoke = useMutation({
    mutationFn: (password: ApplicationPassword) => revokeOwnApplicationPassword(password.uuid),
    onMutate: () => setDone(null),
    onSuccess: (answer) => {
      setRevoking(null);
      setDone(`Application password “${answer.previous.name}” revoked: it, and the sessions opened with it, no longer work.`);
    },
    onError: () => setRevoking(null),
    onSettled: () => queries.invalidateQueries({ queryKey: accountKeys.applicationPasswords }),
  });

  return (
    <section className="card" aria-labelledby="own-passwords-title">
      <h2 id="own-passwords-title">Your application passwords</h2>
      <p>They let scripts and API clients act as you (HTTP Basic with your login). Revoke one you no longer use or that may have leaked; an administrator creates new ones from the team screen.</p>
      {done && <Success>{done}</Success>}
      {revoke.isError && <ErrorNotice error={revoke.error} />}
      <QueryView query={passwords} what="your application passwords">
        {(list) =>
          list.length === 0 ? (
            <Empty>You have no application passwords.</Empty>
          ) : (
            <TableScroll label="Your application passwords">
              <table className="list-table">
                <caption className="visually-hidden">Your application passwords</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((password) => (
                    <tr key={password.uuid}>
                      <th scope="row">{password.name}</th>
                      <td data-label="Created">
                        <Time iso={password.created_at} />
                      </td>
                      <td data-label="Last used">
                        {password.last_used_at ? (
                          <>
                            <Time iso={password.last_used_at} />
                            {password.last_ip ? ` from ${password.last_ip}` : ''}
                          </>
                        ) : (
                          'Never'
                        )}
                      </td>
                      <td className="number">
                        <button type="button" className="button button-danger" disabled={revoke.isPending} onClick={() => setRevoking(password)}>
                          Revoke<span className="visually-hidden"> “{password.name}”</span>
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </QueryView>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p>Scripts using it stop working at once, and console sessions opened with it end (this one too, if you signed in with it).</p>
      </ConfirmDialog>
    </section>
  );
}
