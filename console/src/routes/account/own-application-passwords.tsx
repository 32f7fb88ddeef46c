import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accountKeys, ownApplicationPasswordsQuery, revokeOwnApplicationPassword } from '../../api/account';
import type { ApplicationPassword } from '../../api/team';
import { ApplicationPasswordsTable } from '../../components/application-passwords-table';
import { Empty, ErrorNotice, QueryView, Success } from '../../components/status';

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
      <QueryView query={passwords} what="status.loading.ownApplicationPasswords">
        {(list) =>
          list.length === 0 ? (
            <Empty>You have no application passwords.</Empty>
          ) : (
            <ApplicationPasswordsTable
              passwords={list}
              caption="Your application passwords"
              label="Your application passwords"
              revoking={revoking}
              busy={revoke.isPending}
              onAskRevoke={setRevoking}
              onConfirmRevoke={(password) => revoke.mutate(password)}
              onCancelRevoke={() => setRevoking(null)}
              consequence="Scripts using it stop working at once, and console sessions opened with it end (this one too, if you signed in with it)."
            />
          )
        }
      </QueryView>
    </section>
  );
}
